/** The words of the platform components; see ../translation.ts for the rules of every area. */
export const platformMessages = {} as const;
