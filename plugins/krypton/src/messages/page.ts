/** The words of the page components; see ../translation.ts for the rules of every area. */
export const pageMessages = {} as const;
