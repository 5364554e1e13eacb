/** The words of the access components; see ../translation.ts for the rules of every area. */
export const accessMessages = {
  actions: {
    read: 'See metadata',
    reveal: 'Reveal values',
    update: 'Update values',
    restore: 'Restore a version',
    restart: 'Restart consuming apps',
    delete: 'Delete',
    manageAccess: 'Change access rules and description',
  },
  reasons: {
    noRules:
      'This Secret has no access rules, and on this deployment (serviceAccount identity) only Krypton admins may use such Secrets.',
    notAMember: "You are not among the Secret's owners, editors or viewers.",
    editorsOnly: "Only the Secret's editors and owners may do this.",
    ownersOnly: "Only the Secret's owners may do this.",
    notPermitted:
      'The Backstage permission policy does not grant {{permission}}.',
  },
} as const;
