import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { LiveSecrets } from './liveSecrets';
import {
  AnnotationAudience,
  LAST_APPLIED_ANNOTATION,
  isShownAnnotation,
  lastChange,
  shownAnnotations,
  shownOwnerReferences,
} from './secretFacts';
import { NativeSecret, SECRETS } from './types';

const CANARY = 'canary-last-applied-5e1d';

function live(annotationPrefix = 'krypton.io'): LiveSecrets {
  return new LiveSecrets({
    gateway: new InMemoryKubeGateway(),
    cluster: 'c',
    annotationPrefix,
    managedOnly: true,
    historyLimit: { ok: true, value: 20 },
  });
}

const secret: NativeSecret = {
  metadata: {
    name: 'db',
    namespace: 'ns',
    uid: 'u1',
    resourceVersion: '7',
    labels: { app: 'payments', 'krypton.io/managed-by': 'krypton' },
    annotations: {
      'krypton.io/version': '3',
      'krypton.io/owners': 'group:default/team-a',
      'example.com/ticket': 'OPS-1',
      'kapp.k14s.io/original': JSON.stringify({
        kind: 'Secret',
        data: { password: Buffer.from(CANARY).toString('base64') },
      }),
      'kapp.k14s.io/original-diff': `- type: test\n  path: /data\n  value:\n    password: ${Buffer.from(
        CANARY,
      ).toString('base64')}`,
      [LAST_APPLIED_ANNOTATION]: JSON.stringify({
        kind: 'Secret',
        data: { password: Buffer.from(CANARY).toString('base64') },
        stringData: { token: CANARY },
      }),
    },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'api',
        uid: 'd1',
        controller: true,
        blockOwnerDeletion: true,
      },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', uid: 'c1' },
    ],
    managedFields: [
      { manager: 'kubectl-client-side-apply', time: '2026-11-30T10:00:00Z' },
      { manager: 'kubectl-edit', time: '2026-12-01T08:30:00Z' },
      { manager: 'controller', time: '2026-11-29T00:00:00Z' },
    ],
  },
  type: 'Opaque',
  data: { password: Buffer.from(CANARY).toString('base64') },
};

describe("a summary's metadata facts", () => {
  it("carries labels, Krypton's annotations, owners and the last change, never the last-applied copy", () => {
    const summary = live().toSummary(secret);
    expect(summary.labels).toEqual({
      app: 'payments',
      'krypton.io/managed-by': 'krypton',
    });
    // example.com/ticket is another tool's annotation that Krypton does not know: withheld from
    // summaries, like the three copies of the applied object, and counted.
    expect(summary.annotations).toEqual({
      'krypton.io/version': '3',
      'krypton.io/owners': 'group:default/team-a',
    });
    expect(summary.withheldAnnotations).toBe(4);
    expect(summary.ownerReferences).toEqual([
      { kind: 'Deployment', name: 'api', uid: 'd1', controller: true },
      { kind: 'ConfigMap', name: 'cfg', uid: 'c1', controller: false },
    ]);
    expect(summary.lastChange).toEqual({
      time: '2026-12-01T08:30:00Z',
      manager: 'kubectl-edit',
    });
    expect(JSON.stringify(summary)).not.toContain(CANARY);
    expect(JSON.stringify(summary)).not.toContain(
      Buffer.from(CANARY).toString('base64'),
    );
  });

  it('withholds the copies of the applied object from the values answer too, which shows every other annotation', () => {
    const dto = live().toDto(secret);
    expect(dto.annotations).toEqual({
      'krypton.io/version': '3',
      'krypton.io/owners': 'group:default/team-a',
      'example.com/ticket': 'OPS-1',
    });
    expect(dto.withheldAnnotations).toBe(3);
    expect(JSON.stringify(dto.annotations)).not.toContain(CANARY);
  });

  it('lists, like the summary, only the annotations that summaries show', async () => {
    const gateway = new InMemoryKubeGateway();
    gateway.put(SECRETS, 'ns', secret);
    const items = await new LiveSecrets({
      gateway,
      cluster: 'c',
      annotationPrefix: 'krypton.io',
      managedOnly: true,
      historyLimit: { ok: true, value: 20 },
    }).listItems('ns', () => true);
    expect(items.map(i => [i.annotations, i.withheldAnnotations])).toEqual([
      [
        {
          'krypton.io/version': '3',
          'krypton.io/owners': 'group:default/team-a',
        },
        4,
      ],
    ]);
  });

  it("shows the annotations under a configured prefix as Krypton's, and no longer the default's", () => {
    const annotations = {
      'example.org/version': '2',
      'example.org/description': 'Moved here',
      'krypton.io/version': '3',
      // A prefix is a whole DNS name, not the start of one.
      'example.org.attacker.test/hash': 'x',
      'sub.example.org/hash': 'y',
    };
    const summary = live('example.org').toSummary({
      metadata: { name: 'db', namespace: 'ns', annotations },
    });
    expect(summary.annotations).toEqual({
      'example.org/version': '2',
      'example.org/description': 'Moved here',
    });
    expect(summary.withheldAnnotations).toBe(3);
    expect(live('example.org').toDto({ metadata: { annotations } })).toEqual(
      expect.objectContaining({ annotations, withheldAnnotations: 0 }),
    );
  });

  it('gives empty facts for a Secret without metadata extras', () => {
    const summary = live().toSummary({
      metadata: { name: 'bare', namespace: 'ns' },
    });
    expect(summary.labels).toEqual({});
    expect(summary.annotations).toEqual({});
    expect(summary.withheldAnnotations).toBe(0);
    expect(summary.ownerReferences).toEqual([]);
    expect(summary).not.toHaveProperty('lastChange');
  });

  it('keeps ordinary annotation keys that look like prototype names as data', () => {
    const hostile = JSON.parse(
      '{"__proto__": "x", "constructor": "y", "krypton.io/__proto__": "z"}',
    );
    const { annotations: shown } = shownAnnotations(
      hostile,
      'krypton.io',
      'values',
    );
    expect(Object.keys(shown).sort()).toEqual([
      '__proto__',
      'constructor',
      'krypton.io/__proto__',
    ]);
    expect(Object.getOwnPropertyDescriptor(shown, '__proto__')?.value).toBe(
      'x',
    );
    expect(shownAnnotations(hostile, 'krypton.io', 'summary')).toEqual({
      annotations: { 'krypton.io/__proto__': 'z' },
      withheld: 2,
    });
  });

  it('skips malformed owner references and managedFields entries', () => {
    expect(
      shownOwnerReferences({
        ownerReferences: [
          { kind: 'Job', name: 'j' } as never,
          null as never,
          { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'p1' },
        ],
      }),
    ).toEqual([{ kind: 'Pod', name: 'p', uid: 'p1', controller: false }]);
    expect(
      lastChange({
        managedFields: [
          null,
          'text',
          { manager: 'a', time: 'not a time' },
          { manager: 'b', time: 42 },
          { time: '2026-01-01T00:00:00Z' },
        ],
      }),
    ).toEqual({ time: '2026-01-01T00:00:00Z' });
    expect(lastChange({ managedFields: [{ manager: 'a' }] })).toBeUndefined();
  });

  it('takes the newest time, not the last entry, and the first of equal times', () => {
    expect(
      lastChange({
        managedFields: [
          { manager: 'new', time: '2026-12-01T10:00:00Z' },
          { manager: 'same', time: '2026-12-01T10:00:00Z' },
          { manager: 'old', time: '2026-12-01T09:59:59Z' },
        ],
      }),
    ).toEqual({ time: '2026-12-01T10:00:00Z', manager: 'new' });
  });
});

/**
 * The annotations that tools other than Krypton put on Secrets, and whether a summary shows them.
 * "shown": set from the tool's configuration or from names, times and revisions. "withheld": the
 * value is derived from the Secret's data, or may be (free text, copies, hashes). Every key that
 * is not a copy of the applied object is shown in the values answer.
 */
const TOOL_ANNOTATIONS: Array<
  [tool: string, key: string, summary: 'shown' | 'withheld']
> = [
  ['Kubernetes', 'kubernetes.io/service-account.name', 'shown'],
  ['Kubernetes', 'kubernetes.io/service-account.uid', 'shown'],
  ['Kubernetes', 'kubernetes.io/description', 'shown'],
  // kubectl --record: the command line, such as create secret --from-literal=password=...
  ['Kubernetes', 'kubernetes.io/change-cause', 'withheld'],
  ['Helm', 'meta.helm.sh/release-name', 'shown'],
  ['Helm', 'meta.helm.sh/release-namespace', 'shown'],
  ['Helm', 'helm.sh/resource-policy', 'shown'],
  ['Helm', 'helm.sh/hook', 'shown'],
  ['Helm', 'helm.sh/hook-weight', 'shown'],
  ['Helm', 'helm.sh/hook-delete-policy', 'shown'],
  ['Argo CD', 'argocd.argoproj.io/tracking-id', 'shown'],
  ['Argo CD', 'argocd.argoproj.io/sync-options', 'shown'],
  ['Argo CD', 'argocd.argoproj.io/compare-options', 'shown'],
  ['Argo CD', 'argocd.argoproj.io/sync-wave', 'shown'],
  ['Argo CD', 'argocd.argoproj.io/hook', 'shown'],
  ['Argo CD', 'argocd.argoproj.io/hook-delete-policy', 'shown'],
  ['Flux', 'kustomize.toolkit.fluxcd.io/reconcile', 'shown'],
  ['Flux', 'kustomize.toolkit.fluxcd.io/prune', 'shown'],
  ['Flux', 'kustomize.toolkit.fluxcd.io/ssa', 'shown'],
  ['Flux', 'kustomize.toolkit.fluxcd.io/force', 'shown'],
  // Flux v0.x: a checksum of the source the manifest, data included, came from.
  ['Flux', 'kustomize.toolkit.fluxcd.io/checksum', 'withheld'],
  // An unsalted hash of the data map: a guessed value can be checked against it.
  ['External Secrets', 'reconcile.external-secrets.io/data-hash', 'withheld'],
  ['Sealed Secrets', 'sealedsecrets.bitnami.com/managed', 'shown'],
  ['Sealed Secrets', 'sealedsecrets.bitnami.com/patch', 'shown'],
  ['Sealed Secrets', 'sealedsecrets.bitnami.com/cluster-wide', 'shown'],
  ['Sealed Secrets', 'sealedsecrets.bitnami.com/namespace-wide', 'shown'],
  [
    'Sealed Secrets',
    'sealedsecrets.bitnami.com/skip-set-owner-references',
    'shown',
  ],
  ['replicator', 'replicator.v1.mittwald.de/replicate-from', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/replicate-to', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/replicate-to-matching', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/replication-allowed', 'shown'],
  [
    'replicator',
    'replicator.v1.mittwald.de/replication-allowed-namespaces',
    'shown',
  ],
  ['replicator', 'replicator.v1.mittwald.de/replicated-at', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/replicated-from-version', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/replicated-keys', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/keep-owner-references', 'shown'],
  ['replicator', 'replicator.v1.mittwald.de/strip-labels', 'shown'],
  ['Reflector', 'reflector.v1.k8s.emberstack.com/reflection-allowed', 'shown'],
  [
    'Reflector',
    'reflector.v1.k8s.emberstack.com/reflection-allowed-namespaces',
    'shown',
  ],
  [
    'Reflector',
    'reflector.v1.k8s.emberstack.com/reflection-auto-enabled',
    'shown',
  ],
  [
    'Reflector',
    'reflector.v1.k8s.emberstack.com/reflection-auto-namespaces',
    'shown',
  ],
  ['Reflector', 'reflector.v1.k8s.emberstack.com/reflects', 'shown'],
  ['Reflector', 'reflector.v1.k8s.emberstack.com/auto-reflects', 'shown'],
  ['Reflector', 'reflector.v1.k8s.emberstack.com/reflected-version', 'shown'],
  ['Reflector', 'reflector.v1.k8s.emberstack.com/reflected-at', 'shown'],
  ['cert-manager', 'cert-manager.io/certificate-name', 'shown'],
  ['cert-manager', 'cert-manager.io/issuer-name', 'shown'],
  ['cert-manager', 'cert-manager.io/issuer-kind', 'shown'],
  ['cert-manager', 'cert-manager.io/issuer-group', 'shown'],
  ['cert-manager', 'cert-manager.io/allow-direct-injection', 'shown'],
  // Read out of the issued certificate, tls.crt: part of a value.
  ['cert-manager', 'cert-manager.io/common-name', 'withheld'],
  ['cert-manager', 'cert-manager.io/alt-names', 'withheld'],
  ['cert-manager', 'cert-manager.io/ip-sans', 'withheld'],
  ['cert-manager', 'cert-manager.io/uri-sans', 'withheld'],
  ['cert-manager', 'cert-manager.io/email-sans', 'withheld'],
  ['cert-manager', 'cert-manager.io/subject-organizations', 'withheld'],
  ['cert-manager', 'cert-manager.io/subject-serialnumber', 'withheld'],
  // Any tool Krypton does not know, and what users put in a template's annotations.
  ['unknown', 'example.com/anything', 'withheld'],
];

/** The copies of the applied object, with its data: withheld from every answer. */
const DATA_COPIES = [
  LAST_APPLIED_ANNOTATION,
  'kapp.k14s.io/original',
  'kapp.k14s.io/original-diff',
];

describe('which annotations reach whom', () => {
  it.each(TOOL_ANNOTATIONS)(
    '%s: %s is %s in summaries, shown in the values answer',
    (_tool, key, summary) => {
      expect(isShownAnnotation(key, 'krypton.io', 'summary')).toBe(
        summary === 'shown',
      );
      expect(isShownAnnotation(key, 'krypton.io', 'values')).toBe(true);
    },
  );

  it.each(DATA_COPIES)('%s is withheld from every answer', key => {
    for (const audience of ['summary', 'values'] as AnnotationAudience[]) {
      expect(isShownAnnotation(key, 'krypton.io', audience)).toBe(false);
    }
  });

  it("shows Krypton's own annotations under the configured prefix to every reader", () => {
    for (const audience of ['summary', 'values'] as AnnotationAudience[]) {
      expect(
        isShownAnnotation('krypton.io/owners', 'krypton.io', audience),
      ).toBe(true);
      expect(isShownAnnotation('acme.test/owners', 'acme.test', audience)).toBe(
        true,
      );
    }
    expect(isShownAnnotation('krypton.io/owners', 'acme.test', 'summary')).toBe(
      false,
    );
  });

  it('withholds an unknown annotation from a Secret summary and counts it with the copies', () => {
    const annotations: Record<string, string> = {
      'krypton.io/version': '1',
      'meta.helm.sh/release-name': 'payments',
      'example.com/anything': 'whatever',
      'reconcile.external-secrets.io/data-hash': 'a1b2',
      [LAST_APPLIED_ANNOTATION]: '{}',
    };
    expect(shownAnnotations(annotations, 'krypton.io', 'summary')).toEqual({
      annotations: {
        'krypton.io/version': '1',
        'meta.helm.sh/release-name': 'payments',
      },
      withheld: 3,
    });
    const values = shownAnnotations(annotations, 'krypton.io', 'values');
    expect(values.withheld).toBe(1);
    expect(Object.keys(values.annotations)).not.toContain(
      LAST_APPLIED_ANNOTATION,
    );
    const summary = live().toSummary({
      metadata: { name: 'db', namespace: 'ns', annotations },
    });
    expect(summary.annotations).not.toHaveProperty(['example.com/anything']);
    expect(summary.withheldAnnotations).toBe(3);
  });

  it('decides in one pass, whatever the number of annotations', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 50_000; i++) many[`example.com/a${i}`] = 'v';
    many['krypton.io/version'] = '1';
    const started = Date.now();
    const out = shownAnnotations(many, 'krypton.io', 'summary');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(out.withheld).toBe(50_000);
    expect(out.annotations).toEqual({ 'krypton.io/version': '1' });
  });
});
