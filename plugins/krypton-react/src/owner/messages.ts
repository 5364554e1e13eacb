/**
 * The words that tell who owns a Secret and what a change of it will come to, in English: the
 * owning tool, what an edit of the data in place does (`outcomes`), what Krypton does with a
 * change (`rules`), how to change it at its source instead (`instead`), the button that asks the
 * owner to write it again from its source (`sync`), and the reason that an installation may ask
 * for (`reason`). The Backstage plugin puts them in its translation ref under `owner`; a host
 * without translations renders them with englishOwnerT. Commands are not words:
 * describeOwnership builds them, so that a translation cannot break them.
 *
 * @public
 */
export const ownedSecretMessages = {
  tools: {
    externalSecrets: 'External Secrets',
    sealedSecrets: 'Sealed Secrets',
    vaultSecretsOperator: 'Vault Secrets Operator',
    infisical: 'Infisical',
    argocd: 'Argo CD',
    flux: 'Flux',
    helm: 'Helm',
    certManager: 'cert-manager',
    controller: 'a controller',
    controllerKind: 'a controller ({{kind}})',
  },
  title: 'Owned by {{tool}}',
  appliedTitle: 'Applied with server-side apply',
  object: 'Owner: {{kind}} {{name}}',
  objectIn: 'Owner: {{kind}} {{name}} in namespace {{namespace}}',
  headings: {
    prediction: 'What an edit here does:',
    rule: 'What Krypton does:',
    instead: 'What to do instead:',
  },
  outcomes: {
    revertedAtOnce:
      'An edit here is undone within seconds: {{tool}} watches this Secret and writes its own data back.',
    revertedAtOnceOrRefresh:
      "An edit here is undone by External Secrets: at once when the ExternalSecret's creationPolicy is Merge; with creationPolicy: Orphan it is kept until the ExternalSecret's next refresh. The Secret does not say which.",
    revertedAtRefresh:
      'An edit here lasts only until {{tool}} next refreshes or reconciles this Secret, which writes its own data back.',
    revertedAtSync:
      'An edit here is undone by Argo CD: at once where the Application self-heals, otherwise at its next sync. The Secret does not say which.',
    replacedAtOnce:
      "An edit here is replaced at once: when the Secret's key pair no longer matches, cert-manager issues a new certificate (and, by default, a new key).",
    lostLater:
      'An edit here is kept only until {{tool}} writes this Secret again, which it does when its source changes or its controller restarts: then it replaces the whole Secret, and the edit is lost.',
    revertedAtUpgradeHelm:
      "An edit here lasts until the release's next upgrade, which writes the chart's data back. Helm 4's upgrade, which applies server-side, fails on a field conflict instead, unless it forces.",
    revertedAtUpgrade:
      "An edit here lasts until the HelmRelease's next upgrade, which writes the chart's data back (sooner where the HelmRelease turns on drift detection).",
    kept: 'An edit here is kept: {{settings}} on this Secret tells {{tool}} to leave it.',
    keptBySetting:
      'An edit here is kept: a setting on this Secret tells {{tool}} to leave it.',
    unknown:
      'Krypton does not know when {{tool}} writes its own state back: an edit here may be undone at any time.',
  },
  settings: 'Settings read from this Secret: {{settings}}.',
  appliedBy:
    'After a change of their keys here, the next server-side apply by {{managers}} of another value would fail on a field conflict with krypton, unless it forces.',
  rules: {
    refused:
      'Krypton does not change it: it does not update, restore, adopt or delete a Secret that another tool owns.',
    reasonRequired:
      'This installation lets you change it through Krypton, with your reason, which the audit log keeps and the notification carries.',
    allowed: 'Krypton changes it like any other Secret.',
  },
  refused:
    '{{tool}} owns this Secret, and Krypton does not change a Secret that another tool owns.',
  instead: {
    externalSecrets:
      'Change the value in the external store, then have {{object}} sync it now:',
    sealedSecrets:
      "Seal the new value with this command (the value on standard input), then put its output in {{object}}'s spec.encryptedData:",
    vaultSecretsOperator:
      'Change it in Vault: the operator writes it to this Secret at its next refresh (refreshAfter).',
    infisical:
      'Change it in Infisical: the operator writes it to this Secret when the data there changes.',
    argocd: 'Change the manifest in the source of {{object}}, then sync it:',
    fluxKustomization:
      'Change it in the source of {{object}}, then reconcile it with its source:',
    fluxHelmRelease:
      'Change the values of {{object}}, then reconcile it with its source:',
    helm: 'Change the values of {{object}}, then upgrade it with its chart:',
    certManager: 'Change {{object}}; to issue it now:',
    controller: 'Change {{object}}, which controls it.',
    named: 'the {{kind}} {{name}}',
    unnamed: 'the {{kind}} that writes {{secret}}',
    helmRelease: 'Helm release',
  },
  sync: {
    button: 'Sync from the store now',
    busy: 'Asking External Secrets…',
    requested:
      'External Secrets was asked to read ExternalSecret {{name}} from its store again (force-sync={{value}}). The Secret changes once its controller has done so.',
    failed: 'Krypton could not ask External Secrets to sync: {{message}}',
    // By the API's refusal ids, as the offer names them; an owner that no ExternalSecret controls
    // (not_supported) gets no words: the command above is all there is.
    refusals: {
      identity:
        'This installation acts on Kubernetes as its own service account, and Krypton asks an owner to sync only as you: run the command above.',
      forbidden:
        'Kubernetes does not let you patch the ExternalSecret {{name}}, so Krypton cannot ask it to sync for you; the command above needs that right too.',
      not_found:
        'The ExternalSecret {{name}} no longer exists, so there is nothing to ask to sync: reload the Secret to see what owns it now.',
      replaced:
        'The ExternalSecret {{name}} was deleted and created again, so it is not the one that owns this Secret as shown: reload the Secret before you sync it.',
      rejected:
        'Kubernetes refuses the annotation that asks the ExternalSecret {{name}} to sync, so Krypton does not offer it; the command above may tell you why.',
    },
  },
  command: {
    copy: 'Copy the command',
    copied: 'Copied',
    copyFailed: 'Could not copy',
  },
  reason: {
    label: 'Your reason for this change',
    help: 'Required: {{tool}} owns this Secret. The audit log keeps your reason and the notification carries it.',
    required: 'Give your reason for changing a Secret that another tool owns.',
    tooLong: 'Your reason is too long: at most {{max}} characters.',
    oneLine:
      'Your reason must be one line of text, without control characters.',
  },
} as const;
