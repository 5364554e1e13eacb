/** The words of the consumers components; see ../translation.ts for the rules of every area. */
export const consumersMessages = {} as const;
