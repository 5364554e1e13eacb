/** The words of the time components; see ../translation.ts for the rules of every area. */
export const timeMessages = {} as const;
