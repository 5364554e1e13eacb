/** The words of the history components; see ../translation.ts for the rules of every area. */
export const historyMessages = {
  card: {
    title: 'History',
    reload: 'Reload history',
    loading: 'Loading history…',
    intro:
      'Each version is a state that a change replaced, saved before the new state was written. Newest first.',
    compareTitle: 'Compare two versions',
  },
  unreachable: 'Krypton could not be reached.',
  failure: {
    retry: 'Retry history',
    deniedTitle: "You may not see this Secret's history",
    denied:
      '{{message}} This is not an empty history: Krypton did not list it for you.',
    unavailableTitle: 'The history is unavailable',
    unavailable:
      '{{message}} This does not mean that any versions are gone: Krypton could not read the history right now.',
    liveReload: 'The live Secret could not be reloaded: {{message}}',
    historyReload: 'The history could not be reloaded: {{message}}',
  },
  empty: {
    body: "No versions yet: Krypton keeps a version each time it changes the Secret's values. The first edit or restore archives the current state as a version you can restore later.",
    note: 'Copies made before Krypton bound history to the live Secret are not listed here, and neither are those of an earlier Secret with the same name; an empty list does not mean that they were erased.',
  },
  retention: {
    keeps_one: 'Keeps {{count}} version',
    keeps_other: 'Keeps {{count}} versions',
    unknown:
      '{{keeps}}; the oldest are removed when a change of values saves a version beyond that.',
    removes:
      '{{keeps}}; the next change of values (an edit or a restore) removes {{versions}}.',
    room_one:
      '{{keeps}}; {{count}} more fits before a change of values removes the oldest.',
    room_other:
      '{{keeps}}; {{count}} more fit before a change of values removes the oldest.',
    full: '{{keeps}}; the history is full, so changes of values after the next one remove the oldest.',
    oneVersion: 'version {{version}}',
    someVersions: 'versions {{list}} and {{last}}',
    oldestVersions: 'the {{total}} oldest versions ({{first}} to {{last}})',
  },
  table: {
    label: 'Versions',
    version: 'Version',
    snapshotBy: 'Snapshot by',
    snapshotAt: 'Snapshot at',
    sourceType: 'Source type',
    actions: 'Actions',
    versionName: 'Version {{version}}',
    fromLiveRevision:
      'taken from the live revision, so it holds the live state',
    viewValues: 'View values',
    hideValues: 'Hide values',
    viewValuesOf: 'View values of version {{version}}',
    hideValuesOf: 'Hide values of version {{version}}',
    restore: 'Restore…',
    restoreVersion: 'Restore version {{version}}',
  },
  blocks: {
    viewDenied:
      'You may not reveal values, so versions cannot be opened. {{reason}}',
    restoreUnavailable: 'Restore is not available: {{reason}}',
    liveUnreadable:
      'The live Secret could not be read, so nothing can be restored from here: a restore needs its current revision.',
    pendingDeletion:
      'The Secret is being deleted (deletion is pending), so it cannot be restored. Reload it to see whether it is gone.',
    immutable:
      'The Secret is immutable: its data cannot be changed, so no version can be restored.',
    restoreDenied: 'You may not restore versions of this Secret. {{reason}}',
  },
  notices: {
    noEarlier: 'There is no earlier version to roll back to.',
    unchanged:
      'Version {{version}} holds the same values as the live Secret, so nothing was changed.',
    restored:
      'Restored version {{version}}. The previous live state was archived as version {{archived}}.',
  },
  live: {
    unreadable:
      'The live Secret could not be read, so versions cannot be compared with it.',
    denied: 'you may not reveal the live values.',
    otherRevision:
      'the loaded live values are from another revision than the live Secret. Reload the Secret to compare values.',
    notLoaded: 'the live values are not loaded.',
  },
  sides: {
    live: 'live',
    liveOption: 'Live',
    version: 'version {{version}}',
    versionOption: 'Version {{version}}',
  },
  compare: {
    group: 'Versions to compare',
    from: 'From',
    to: 'To',
    swap: 'Swap the two sides',
    compare: 'Compare',
    pickTwo: 'Pick two different sides to compare.',
    heading: 'From {{from}} to {{to}}',
    tableTitle: 'Changes from {{from}} to {{to}}',
    valuesOf: 'the values of {{side}}',
    valuesOfBoth: 'the values of {{first}} and {{second}}',
    loadFailed: 'Could not load {{what}}: {{message}}',
    retry: 'Retry',
    loading: 'Loading {{what}}…',
  },
  details: {
    valuesTitle: 'Values of version {{version}}',
    toLive: 'From version {{version}} to live',
    fromPrevious: 'From the previous version',
    comparePrevious: 'Compare with version {{version}} (previous)',
    oldest: 'Version {{version}} is the oldest retained version.',
  },
  diff: {
    keysOnly: 'Only key names are compared.',
    keysOnlyBecause: 'Only key names are compared: {{reason}}',
    countsCompared:
      '{{added}} added, {{removed}} removed, {{changed}} changed, {{unchanged}} unchanged.',
    countsKeys: '{{added}} added, {{removed}} removed, {{present}} in both.',
    noKeys: 'Neither side has any keys.',
    key: 'Key',
    change: 'Change',
    kind: 'Kind',
    changes: {
      added: 'Added',
      removed: 'Removed',
      changed: 'Changed',
      unchanged: 'Unchanged',
      present: 'In both (values not compared)',
    },
    kinds: { text: 'text', binary: 'binary' },
    binaryNoLineDiff: 'binary: no line diff',
    binaryNotShown: 'binary, not shown',
    sameValue: 'same value',
    valueNotAvailable: 'value not available',
    hidden: 'Hidden',
    reveal: 'Reveal',
    hide: 'Hide',
    revealValue: 'Reveal the value of {{key}} in {{side}}',
    hideValue: 'Hide the value of {{key}} in {{side}}',
  },
  lines: {
    heading: 'Line changes of {{key}}',
    headingHidden: 'Line changes of {{key}}: hidden',
    reveal: 'Reveal',
    hide: 'Hide',
    revealLabel: 'Reveal line changes of {{key}} from {{from}} to {{to}}',
    hideLabel: 'Hide line changes of {{key}} from {{from}} to {{to}}',
    lines_one: '{{count, number}} line',
    lines_other: '{{count, number}} lines',
    summary: '{{removed}} removed, {{added}} added.',
    tooManyLines_one: 'a side has more than {{count, number}} line',
    tooManyLines_other: 'a side has more than {{count, number}} lines',
    tooManyChanges_one: 'more than {{count, number}} line differs',
    tooManyChanges_other: 'more than {{count, number}} lines differ',
    tooDifferent:
      'Too different to show line by line ({{reason}}): the whole value was replaced. Reveal each side above to read it.',
    skipped_one: '{{count, number}} unchanged line not shown',
    skipped_other: '{{count, number}} unchanged lines not shown',
    lineBefore: 'Line before',
    lineAfter: 'Line after',
    change: 'Change',
    text: 'Text',
    spokenRemoved: 'Removed: ',
    spokenAdded: 'Added: ',
    noNewline: 'No line break at the end of the value',
  },
  restore: {
    title: 'Restore version {{version}}?',
    body: 'Restoring replaces the data of {{name}} with the data of version {{version}} (snapshot by {{by}} at {{at}}). Only the data changes: the live type, owners, finalizers, immutability, description and access rules stay as they are.',
    archived:
      'The current live state is archived first as version {{version}}, so you can roll back to it while it is retained.',
    expected:
      'Expected revision: {{revision}}. If the live Secret has changed since, Krypton refuses the restore instead of overwriting that change.',
    unconfirmed:
      'The restore did not complete, and it may or may not have been applied. Reload latest to check before trying again.',
    failures: {
      unconfirmed: 'The restore may not have been applied',
      stale: 'This Secret changed since you loaded it',
      refused: 'The restore was refused',
      notFound: 'Nothing to restore',
      failed: 'The restore failed',
    },
    needsReload:
      'Reload latest fetches the current Secret and history for review; nothing is restored until you confirm again.',
    reloadFailedTitle: 'Could not reload the latest state',
    reloadFailed:
      '{{message}} Nothing was restored. You can try Reload latest again.',
    blocked: {
      needsReload:
        'Reload latest, review the current state, then restore again.',
      revisionChanged:
        'The live Secret changed since this dialog opened. Reload latest to review it.',
      historyFailed:
        'The history could not be reloaded, so this version is not known to be current. Reload latest.',
      historyLoading: 'Reloading the history…',
      comparing: 'Loading what will change…',
    },
    whatChanges: 'What will change (live → version {{version}})',
    comparing: 'Loading what will change…',
    tableTitle: 'Changes from live to version {{version}}',
    versionDenied: 'you may not reveal the values of version {{version}}.',
    versionUnreadable:
      'the values of version {{version}} could not be read ({{message}}).',
    noComparison:
      'The keys of version {{version}} were not recorded, and its values cannot be read here, so what will change cannot be shown.',
    cancel: 'Cancel',
    reloadLatest: 'Reload latest',
    reloading: 'Reloading…',
    restore: 'Restore',
    restoring: 'Restoring…',
  },
} as const;
