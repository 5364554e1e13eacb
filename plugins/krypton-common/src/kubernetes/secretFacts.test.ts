import { InMemoryKubeGateway } from '../__testUtils__/InMemoryKubeGateway';
import { LiveSecrets } from './liveSecrets';
import {
  LAST_APPLIED_ANNOTATION,
  lastChange,
  shownAnnotations,
  shownOwnerReferences,
} from './secretFacts';
import { NativeSecret } from './types';

const CANARY = 'canary-last-applied-5e1d';

function live(): LiveSecrets {
  return new LiveSecrets({
    gateway: new InMemoryKubeGateway(),
    cluster: 'c',
    annotationPrefix: 'krypton.io',
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
  it('carries labels, annotations, owners and the last change, never the last-applied copy', () => {
    const summary = live().toSummary(secret);
    expect(summary.labels).toEqual({
      app: 'payments',
      'krypton.io/managed-by': 'krypton',
    });
    expect(summary.annotations).toEqual({
      'krypton.io/version': '3',
      'krypton.io/owners': 'group:default/team-a',
      'example.com/ticket': 'OPS-1',
    });
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

  it('withholds the last-applied copy from the values answer too, which carries the values on purpose', () => {
    const dto = live().toDto(secret);
    expect(Object.keys(dto.annotations ?? {})).not.toContain(
      LAST_APPLIED_ANNOTATION,
    );
  });

  it('gives empty facts for a Secret without metadata extras', () => {
    const summary = live().toSummary({
      metadata: { name: 'bare', namespace: 'ns' },
    });
    expect(summary.labels).toEqual({});
    expect(summary.annotations).toEqual({});
    expect(summary.ownerReferences).toEqual([]);
    expect(summary).not.toHaveProperty('lastChange');
  });

  it('keeps ordinary annotation keys that look like prototype names as data', () => {
    const shown = shownAnnotations(
      JSON.parse('{"__proto__": "x", "constructor": "y"}'),
    );
    expect(Object.keys(shown).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(shown, '__proto__')?.value).toBe(
      'x',
    );
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
