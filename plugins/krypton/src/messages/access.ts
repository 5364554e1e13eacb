/** The words of the access components; see ../translation.ts for the rules of every area. */
export const accessMessages = {} as const;
