/** The words of the list components; see ../translation.ts for the rules of every area. */
export const listMessages = {} as const;
