import type { SecretOwner } from '@krypton/core';
import {
  OwnershipDescription,
  describeOwnership,
  describeReasonProblem,
  englishOwnerT,
  ownedEditRefusal,
  ownedEditsOf,
  ownerToolName,
} from './describe';

const t = englishOwnerT;
const AT = { namespace: 'team-a', name: 'db' };

function owner(overrides: Partial<SecretOwner>): SecretOwner {
  return {
    tool: 'controller',
    outcome: 'unknown',
    evidence: ['ownerReferences'],
    edits: 'refused',
    ...overrides,
  };
}

const describe1 = (o: SecretOwner, facts: Partial<typeof AT> = {}) => {
  const description = describeOwnership({ ...AT, ...facts, owner: o }, t);
  if (!description) throw new Error('an owned Secret is always described');
  return description;
};

describe('describeOwnership', () => {
  it('describes nothing for a Secret that nothing claims', () => {
    expect(describeOwnership(AT, t)).toBeUndefined();
    expect(describeOwnership({ ...AT, dataAppliedBy: [] }, t)).toBeUndefined();
  });

  describe('names the owner', () => {
    it.each<[Partial<SecretOwner>, string]>([
      [{ tool: 'external-secrets' }, 'Owned by External Secrets'],
      [{ tool: 'sealed-secrets' }, 'Owned by Sealed Secrets'],
      [{ tool: 'vault-secrets-operator' }, 'Owned by Vault Secrets Operator'],
      [{ tool: 'infisical' }, 'Owned by Infisical'],
      [{ tool: 'argocd' }, 'Owned by Argo CD'],
      [{ tool: 'flux' }, 'Owned by Flux'],
      [{ tool: 'helm' }, 'Owned by Helm'],
      [{ tool: 'cert-manager' }, 'Owned by cert-manager'],
      [
        { tool: 'controller', kind: 'Widget' },
        'Owned by a controller (Widget)',
      ],
      [{ tool: 'controller' }, 'Owned by a controller'],
    ])('%j as %j', (fields, title) => {
      expect(describe1(owner(fields)).title).toBe(title);
    });

    it('with its object, and its namespace where the metadata names one', () => {
      expect(
        describe1(
          owner({
            tool: 'helm',
            kind: 'Release',
            name: 'web',
            namespace: 'apps',
            outcome: 'reverted-at-upgrade',
          }),
        ).object,
      ).toBe('Owner: Release web in namespace apps');
      expect(
        describe1(
          owner({
            tool: 'external-secrets',
            kind: 'ExternalSecret',
            name: 'db-creds',
            outcome: 'reverted-at-once',
          }),
        ).object,
      ).toBe('Owner: ExternalSecret db-creds');
      expect(
        describe1(owner({ tool: 'external-secrets', kind: 'ExternalSecret' }))
          .object,
      ).toBeUndefined();
    });

    it('by its tool id when a newer backend names a tool this one does not know', () => {
      const future = owner({
        tool: 'crossplane' as SecretOwner['tool'],
      });
      expect(ownerToolName(future, t)).toBe('crossplane');
    });
  });

  describe('predicts each outcome', () => {
    it.each<[Partial<SecretOwner>, string]>([
      [
        { tool: 'external-secrets', outcome: 'reverted-at-once' },
        'An edit here is undone within seconds: External Secrets watches this Secret and writes its own data back.',
      ],
      [
        { tool: 'external-secrets', outcome: 'reverted-at-once-or-refresh' },
        "An edit here is undone by External Secrets: at once when the ExternalSecret's creationPolicy is Merge; with creationPolicy: Orphan it is kept until the ExternalSecret's next refresh. The Secret does not say which.",
      ],
      [
        { tool: 'vault-secrets-operator', outcome: 'reverted-at-refresh' },
        'An edit here lasts only until Vault Secrets Operator next refreshes or reconciles this Secret, which writes its own data back.',
      ],
      [
        { tool: 'argocd', outcome: 'reverted-at-sync' },
        'An edit here is undone by Argo CD: at once where the Application self-heals, otherwise at its next sync. The Secret does not say which.',
      ],
      [
        { tool: 'cert-manager', outcome: 'replaced-at-once' },
        "An edit here is replaced at once: when the Secret's key pair no longer matches, cert-manager issues a new certificate (and, by default, a new key).",
      ],
      [
        { tool: 'sealed-secrets', outcome: 'lost-later' },
        'An edit here is kept only until Sealed Secrets writes this Secret again, which it does when its source changes or its controller restarts: then it replaces the whole Secret, and the edit is lost.',
      ],
      [
        { tool: 'helm', outcome: 'reverted-at-upgrade' },
        "An edit here lasts until the release's next upgrade, which writes the chart's data back. Helm 4's upgrade, which applies server-side, fails on a field conflict instead, unless it forces.",
      ],
      [
        { tool: 'flux', kind: 'HelmRelease', outcome: 'reverted-at-upgrade' },
        "An edit here lasts until the HelmRelease's next upgrade, which writes the chart's data back (sooner where the HelmRelease turns on drift detection).",
      ],
      [
        { tool: 'controller', kind: 'Widget', outcome: 'unknown' },
        'Krypton does not know when a controller (Widget) writes its own state back: an edit here may be undone at any time.',
      ],
    ])('%j', (fields, sentence) => {
      expect(describe1(owner(fields)).prediction).toBe(sentence);
    });

    it('names the setting that keeps an edit, and lists the others', () => {
      const kept = describe1(
        owner({
          tool: 'flux',
          kind: 'Kustomization',
          name: 'apps',
          outcome: 'kept',
          edits: 'allowed',
          settings: [
            'kustomize.toolkit.fluxcd.io/ssa=IfNotPresent',
            'kustomize.toolkit.fluxcd.io/prune=disabled',
          ],
        }),
      );
      expect(kept.prediction).toBe(
        'An edit here is kept: kustomize.toolkit.fluxcd.io/ssa=IfNotPresent on this Secret tells Flux to leave it.',
      );
      expect(kept.settings).toBe(
        'Settings read from this Secret: kustomize.toolkit.fluxcd.io/prune=disabled.',
      );
    });

    it.each([
      'kustomize.toolkit.fluxcd.io/reconcile=disabled',
      'kustomize.toolkit.fluxcd.io/ssa=Ignore',
    ])('names %s as the setting that keeps an edit', setting => {
      expect(
        describe1(owner({ tool: 'flux', outcome: 'kept', settings: [setting] }))
          .prediction,
      ).toBe(
        `An edit here is kept: ${setting} on this Secret tells Flux to leave it.`,
      );
    });

    it('says that a setting keeps an edit when it cannot tell which', () => {
      const kept = describe1(owner({ tool: 'flux', outcome: 'kept' }));
      expect(kept.prediction).toBe(
        'An edit here is kept: a setting on this Secret tells Flux to leave it.',
      );
      expect(kept.settings).toBeUndefined();
    });

    it('lists settings that do not keep an edit beside the prediction', () => {
      const merged = describe1(
        owner({
          tool: 'flux',
          kind: 'Kustomization',
          outcome: 'reverted-at-refresh',
          settings: ['kustomize.toolkit.fluxcd.io/ssa=Merge'],
        }),
      );
      expect(merged.prediction).toBe(
        'An edit here lasts only until Flux next refreshes or reconciles this Secret, which writes its own data back.',
      );
      expect(merged.settings).toBe(
        'Settings read from this Secret: kustomize.toolkit.fluxcd.io/ssa=Merge.',
      );
      expect(
        describe1(
          owner({
            tool: 'flux',
            kind: 'HelmRelease',
            outcome: 'reverted-at-upgrade',
            settings: ['helm.toolkit.fluxcd.io/driftDetection=disabled'],
          }),
        ).settings,
      ).toBe(
        'Settings read from this Secret: helm.toolkit.fluxcd.io/driftDetection=disabled.',
      );
    });
  });

  describe("says what Krypton does by the owner's rule", () => {
    it.each<[SecretOwner['edits'] | undefined, string]>([
      [
        'refused',
        'Krypton does not change it: it does not update, restore, adopt or delete a Secret that another tool owns.',
      ],
      [
        'reason-required',
        'This installation lets you change it through Krypton, with your reason, which the audit log keeps and the notification carries.',
      ],
      ['allowed', 'Krypton changes it like any other Secret.'],
    ])('%s', (edits, rule) => {
      const described = describe1(owner({ tool: 'helm', edits }));
      expect(described.rule).toBe(rule);
      expect(described.edits).toBe(edits);
    });

    it('reads an owner without a rule (an older answer) as refused', () => {
      const { edits: _edits, ...older } = owner({ tool: 'helm' });
      expect(ownedEditsOf(older)).toBe('refused');
      expect(
        describeOwnership({ ...AT, owner: older as SecretOwner }, t)?.edits,
      ).toBe('refused');
    });
  });

  describe('says what to do instead', () => {
    const insteadOf = (o: SecretOwner): OwnershipDescription['instead'] =>
      describe1(o).instead;

    it.each<[Partial<SecretOwner>, string, string | undefined]>([
      [
        {
          tool: 'external-secrets',
          kind: 'ExternalSecret',
          name: 'db-creds',
          outcome: 'reverted-at-once',
        },
        'Change the value in the external store, then have the ExternalSecret db-creds sync it now:',
        'kubectl annotate externalsecret db-creds -n team-a force-sync=$(date +%s) --overwrite',
      ],
      [
        {
          tool: 'external-secrets',
          kind: 'ExternalSecret',
          outcome: 'reverted-at-once-or-refresh',
        },
        'Change the value in the external store, then have the ExternalSecret that writes db sync it now:',
        'kubectl annotate externalsecret <externalsecret> -n team-a force-sync=$(date +%s) --overwrite',
      ],
      [
        { tool: 'sealed-secrets', kind: 'SealedSecret', outcome: 'lost-later' },
        "Seal the new value with this command (the value on standard input), then put its output in the SealedSecret db's spec.encryptedData:",
        'kubeseal --raw --namespace team-a --name db',
      ],
      [
        { tool: 'vault-secrets-operator', outcome: 'reverted-at-refresh' },
        'Change it in Vault: the operator writes it to this Secret at its next refresh (refreshAfter).',
        undefined,
      ],
      [
        {
          tool: 'infisical',
          kind: 'InfisicalSecret',
          name: 'db',
          outcome: 'lost-later',
        },
        'Change it in Infisical: the operator writes it to this Secret when the data there changes.',
        undefined,
      ],
      [
        {
          tool: 'argocd',
          kind: 'Application',
          name: 'shop',
          outcome: 'reverted-at-sync',
        },
        'Change the manifest in the source of the Application shop, then sync it:',
        'argocd app sync shop',
      ],
      [
        {
          tool: 'argocd',
          kind: 'Application',
          name: 'team_shop',
          outcome: 'reverted-at-sync',
        },
        'Change the manifest in the source of the Application team_shop, then sync it:',
        // An Application in another namespace, as its tracking id names it; its CLI takes ns/app.
        'argocd app sync team/shop',
      ],
      [
        { tool: 'argocd', kind: 'Application', outcome: 'reverted-at-sync' },
        'Change the manifest in the source of the Application that writes db, then sync it:',
        'argocd app sync <app>',
      ],
      [
        {
          tool: 'flux',
          kind: 'Kustomization',
          name: 'apps',
          namespace: 'flux-system',
          outcome: 'reverted-at-refresh',
        },
        'Change it in the source of the Kustomization apps, then reconcile it with its source:',
        'flux reconcile kustomization apps -n flux-system --with-source',
      ],
      [
        {
          tool: 'flux',
          kind: 'HelmRelease',
          name: 'shop',
          namespace: 'flux-system',
          outcome: 'reverted-at-upgrade',
        },
        'Change the values of the HelmRelease shop, then reconcile it with its source:',
        'flux reconcile helmrelease shop -n flux-system --with-source',
      ],
      [
        {
          tool: 'helm',
          kind: 'Release',
          name: 'web',
          namespace: 'apps',
          outcome: 'reverted-at-upgrade',
        },
        'Change the values of the Helm release web, then upgrade it with its chart:',
        'helm upgrade web <chart> -n apps',
      ],
      [
        // The release's namespace is the Secret's where the metadata does not name it.
        {
          tool: 'helm',
          kind: 'Release',
          name: 'web',
          outcome: 'reverted-at-upgrade',
        },
        'Change the values of the Helm release web, then upgrade it with its chart:',
        'helm upgrade web <chart> -n team-a',
      ],
      [
        {
          tool: 'cert-manager',
          kind: 'Certificate',
          name: 'site-tls',
          outcome: 'replaced-at-once',
        },
        'Change the Certificate site-tls; to issue it now:',
        'cmctl renew site-tls -n team-a',
      ],
      [
        { tool: 'controller', kind: 'Widget', name: 'w1', outcome: 'unknown' },
        'Change the Widget w1, which controls it.',
        undefined,
      ],
    ])('%j', (fields, text, command) => {
      expect(insteadOf(owner(fields))).toEqual(
        command === undefined ? { text } : { text, command },
      );
    });

    it('offers nothing where an edit here is kept', () => {
      expect(
        insteadOf(
          owner({
            tool: 'flux',
            kind: 'Kustomization',
            name: 'apps',
            outcome: 'kept',
            edits: 'allowed',
          }),
        ),
      ).toBeUndefined();
    });

    it('never puts a name that is no object name into a command', () => {
      const step = insteadOf(
        owner({
          tool: 'argocd',
          kind: 'Application',
          name: 'x; rm -rf ~',
          outcome: 'reverted-at-sync',
        }),
      );
      expect(step?.command).toBe('argocd app sync <app>');
      expect(step?.text).toContain('the Application that writes db');
    });
  });

  describe('warns of a field conflict with a server-side apply', () => {
    it('beside the owner', () => {
      const described = describeOwnership(
        {
          ...AT,
          owner: owner({
            tool: 'helm',
            name: 'web',
            outcome: 'reverted-at-upgrade',
          }),
          dataAppliedBy: ['helm'],
        },
        t,
      );
      expect(described?.conflict).toBe(
        'After a change of their keys here, the next server-side apply by helm of another value would fail on a field conflict with krypton, unless it forces.',
      );
    });

    it('alone, for a Secret that only a server-side apply claims', () => {
      expect(
        describeOwnership(
          { ...AT, dataAppliedBy: ['kubectl', 'argocd-controller'] },
          t,
        ),
      ).toEqual({
        title: 'Applied with server-side apply',
        conflict:
          'After a change of their keys here, the next server-side apply by kubectl, argocd-controller of another value would fail on a field conflict with krypton, unless it forces.',
      });
    });
  });
});

describe('ownedEditRefusal', () => {
  it('gives the reason only where Krypton refuses the change', () => {
    expect(ownedEditRefusal(owner({ tool: 'helm' }), t)).toBe(
      'Helm owns this Secret, and Krypton does not change a Secret that another tool owns.',
    );
    expect(
      ownedEditRefusal(owner({ tool: 'helm', edits: 'reason-required' }), t),
    ).toBeUndefined();
    expect(
      ownedEditRefusal(owner({ tool: 'flux', edits: 'allowed' }), t),
    ).toBeUndefined();
    expect(ownedEditRefusal(undefined, t)).toBeUndefined();
  });
});

describe('describeReasonProblem', () => {
  it('words each problem', () => {
    expect(describeReasonProblem('required', t)).toBe(
      'Give your reason for changing a Secret that another tool owns.',
    );
    expect(describeReasonProblem('tooLong', t)).toBe(
      'Your reason is too long: at most 500 characters.',
    );
    expect(describeReasonProblem('oneLine', t)).toBe(
      'Your reason must be one line of text, without control characters.',
    );
  });
});
