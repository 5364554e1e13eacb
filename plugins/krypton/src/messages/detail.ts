/** The words of the detail components; see ../translation.ts for the rules of every area. */
export const detailMessages = {} as const;
