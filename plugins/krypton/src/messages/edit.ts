/** The words of the edit components; see ../translation.ts for the rules of every area. */
export const editMessages = {} as const;
