/** The words of the page components; see ../translation.ts for the rules of every area. */
export const pageMessages = {
  header: {
    type: 'Krypton',
  },
  rollBack: {
    label: 'Roll back {{name}}…',
    text: 'Roll back…',
  },
  entity: {
    noLinksTitle: 'No Secrets linked',
    noLinks:
      'Add a {{secrets}} annotation (namespace/name or cluster/namespace/name, comma-separated), or a {{selector}} label selector with {{namespace}} (or {{kubernetesNamespace}}) and optionally {{cluster}}, to this entity.',
    selectorUnusable: 'The label selector link cannot be used',
    selectorFailed: 'Could not list the Secrets that match {{where}}',
    selectorWhere: '{{selector}} in {{namespace}}',
    noneMatch: 'No Secrets match {{where}}.',
    matched_one: '{{count}} Secret matches {{where}}.',
    matched_other: '{{count}} Secrets match {{where}}.',
    tableTitle: 'Linked Secrets',
    notLoaded_one:
      '{{count}} more entry was not loaded: Krypton reads at most {{max}} entries of this annotation.',
    notLoaded_other:
      '{{count}} more entries were not loaded: Krypton reads at most {{max}} entries of this annotation.',
  },
} as const;
