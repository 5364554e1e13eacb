import { kryptonKeys } from '../annotations';
import { KryptonError } from '../errors';
import { NativeSecret } from '../kubernetes/types';
import { isKryptonStorageSecret } from '../kubernetes/secretViews';
import { parseCreateRequest } from '../validation';
import {
  buildProposalSecret,
  isProposalSecret,
  proposalName,
  readProposal,
  readProposalBinding,
} from './proposalSecret';

const KEYS = kryptonKeys('krypton.io');
const ID = '0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f';
const live: NativeSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'db',
    namespace: 'payments',
    uid: 'live-uid',
    resourceVersion: '41',
  },
  type: 'kubernetes.io/basic-auth',
  data: { username: 'YQ==' },
};

/** The proposal as the API server answers it: namespaced, with a UID of its own. */
function stored(overrides: (s: NativeSecret) => void = () => {}) {
  const secret = buildProposalSecret(
    live,
    {
      requestId: ID,
      data: { username: 'Yg==', password: 'Yw==' },
      by: 'user:default/alice',
      at: '2026-12-06T07:00:00.000Z',
    },
    KEYS,
  );
  secret.metadata.namespace = 'payments';
  secret.metadata.uid = 'proposal-uid';
  secret.metadata.resourceVersion = '42';
  overrides(secret);
  return secret;
}

describe('proposal Secrets', () => {
  it('are immutable Opaque Secrets under the reserved name, owned by and bound to the live revision', () => {
    const secret = stored();
    expect(secret).toMatchObject({
      type: 'Opaque',
      immutable: true,
      data: { username: 'Yg==', password: 'Yw==' },
      metadata: {
        name: `krypton-p-${ID}`,
        labels: {
          'krypton.io/managed-by': 'krypton',
          'krypton.io/kind': 'proposal',
        },
        annotations: {
          'krypton.io/proposal-of': 'db',
          'krypton.io/source-uid': 'live-uid',
          'krypton.io/source-resource-version': '41',
          'krypton.io/proposed-by': 'user:default/alice',
          'krypton.io/proposed-at': '2026-12-06T07:00:00.000Z',
        },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Secret', name: 'db', uid: 'live-uid' },
        ],
      },
    });
    expect(readProposal(secret, KEYS)).toEqual({
      requestId: ID,
      namespace: 'payments',
      uid: 'proposal-uid',
      secret: 'db',
      sourceUid: 'live-uid',
      baseRevision: '41',
      proposedBy: 'user:default/alice',
      proposedAt: '2026-12-06T07:00:00.000Z',
      data: { username: 'Yg==', password: 'Yw==' },
    });
  });

  it('take only a request id as their name', () => {
    for (const id of ['', 'x', `${ID}0`, ID.toUpperCase(), `../${ID}`]) {
      expect(() => proposalName(id)).toThrow(KryptonError);
    }
    expect(proposalName(ID)).toBe(`krypton-p-${ID}`);
  });

  it.each<[string, (s: NativeSecret) => void]>([
    ['a mutable one', s => (s.immutable = false)],
    ['another type', s => (s.type = 'kubernetes.io/tls')],
    [
      'another kind label',
      s => (s.metadata.labels!['krypton.io/kind'] = 'history'),
    ],
    [
      'no managed-by label',
      s => delete s.metadata.labels!['krypton.io/managed-by'],
    ],
    ['a name that is no request id', s => (s.metadata.name = 'krypton-p-db')],
    [
      'no base revision',
      s => delete s.metadata.annotations!['krypton.io/source-resource-version'],
    ],
    [
      'no requester',
      s => delete s.metadata.annotations!['krypton.io/proposed-by'],
    ],
    [
      'an unreadable time',
      s => (s.metadata.annotations!['krypton.io/proposed-at'] = 'soon'),
    ],
    ['no owner', s => delete s.metadata.ownerReferences],
    ['another owner', s => (s.metadata.ownerReferences![0].uid = 'other-uid')],
    [
      'an owner of another name',
      s => (s.metadata.ownerReferences![0].name = 'other'),
    ],
    [
      'a second owner',
      s =>
        s.metadata.ownerReferences!.push({
          apiVersion: 'v1',
          kind: 'Secret',
          name: 'db',
          uid: 'live-uid',
        }),
    ],
    ['no UID', s => delete s.metadata.uid],
  ])('refuse %s', (_, change) => {
    const secret = stored(change);
    expect(readProposal(secret, KEYS)).toBeUndefined();
  });

  it('are judged by their metadata alone, as metadata lists carry them', () => {
    const { data, type, immutable, ...metadataOnly } = stored();
    expect(readProposalBinding(metadataOnly, KEYS)).toMatchObject({
      requestId: ID,
      sourceUid: 'live-uid',
    });
    expect(readProposal(metadataOnly as NativeSecret, KEYS)).toBeUndefined();
  });

  it('are never live Secrets, by label or by name, valid or not', () => {
    const byLabel = stored(s => (s.metadata.name = 'innocent'));
    const byName = stored(s => (s.metadata.labels = {}));
    for (const secret of [stored(), byLabel, byName]) {
      expect(isProposalSecret(secret, KEYS)).toBe(true);
      expect(isKryptonStorageSecret(secret, KEYS)).toBe(true);
    }
    expect(isKryptonStorageSecret(live, KEYS)).toBe(false);
  });

  it('take a name that nobody may choose for a new Secret', () => {
    expect(() => parseCreateRequest({ name: `krypton-p-${ID}` })).toThrow(
      'Names starting with "krypton-p-" are reserved for Krypton\'s change requests.',
    );
  });
});
