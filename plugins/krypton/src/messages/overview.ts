/** The words of the overview components; see ../translation.ts for the rules of every area. */
export const overviewMessages = {
  title: 'Secrets',
  tableLabel: 'Linked Secrets',
  columns: {
    secret: 'Secret',
    version: 'Version',
    lastChange: 'Last change',
    status: 'Status',
  },
  lastChange: {
    change: '{{by}}, {{time}}',
    /** Shown as a dash; the words are its tooltip and what screen readers read. */
    none: 'No change through Krypton yet',
    unknown: 'Unknown',
  },
  status: {
    ok: 'OK',
    pending: 'Pending deletion since {{since}}',
    historyUnreadable: 'History could not be read: {{reason}}',
  },
  /** A name's tooltip: the name alone may be cut short, and the namespace is not shown. */
  fullName: '{{namespace}}/{{name}}',
  fullNameInCluster: '{{namespace}}/{{name}} in {{cluster}}',
  history: 'History',
  historyOf: 'History of {{name}}',
  consumers: 'Consumers',
  consumersOf: 'Consumers of {{name}}',
  nothingLinked:
    'No Secrets linked. Add a {{annotation}} annotation to this entity.',
  selectorProblem: 'The label selector link cannot be used: {{problem}}',
  selectorFailed:
    'Could not list the Secrets that match {{selector}}: {{reason}}',
  noMatch: "No Secrets match the entity's links.",
  more_one:
    "and {{count}} more linked Secret, listed on the entity's Secrets tab.",
  more_other:
    "and {{count}} more linked Secrets, listed on the entity's Secrets tab.",
} as const;
