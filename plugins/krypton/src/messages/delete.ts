/** The words of the delete components; see ../translation.ts for the rules of every area. */
export const deleteMessages = {} as const;
