/** The words of the history components; see ../translation.ts for the rules of every area. */
export const historyMessages = {} as const;
