/** The words of the operator components; see ../translation.ts for the rules of every area. */
export const operatorMessages = {} as const;
