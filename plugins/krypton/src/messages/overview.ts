/** The words of the overview components; see ../translation.ts for the rules of every area. */
export const overviewMessages = {} as const;
