/** The words of the values components; see ../translation.ts for the rules of every area. */
export const valuesMessages = {} as const;
