import type { OwnerSyncOffer, SecretOwner } from '@krypton/core';
import { OWNER_SYNC_MESSAGES } from '@krypton/core';
import { englishOwnerT } from './describe';
import {
  describeOwnerSyncRefusal,
  describeOwnerSyncResult,
  ownerSyncTargetName,
} from './sync';

const t = englishOwnerT;
const AT = { namespace: 'team-a', name: 'db' };
const TARGET = {
  tool: 'external-secrets',
  kind: 'ExternalSecret',
  name: 'db-source',
} as const;

const eso: SecretOwner = {
  tool: 'external-secrets',
  kind: 'ExternalSecret',
  name: 'db-source',
  outcome: 'reverted-at-once',
  evidence: ['ownerReferences'],
  edits: 'refused',
};

const refused = (refusal: OwnerSyncOffer['refusal']): OwnerSyncOffer => ({
  available: false,
  target: TARGET,
  refusal,
  message: 'fixed words of the API',
});

describe('ownerSyncTargetName', () => {
  it('names the ExternalSecret that owns the Secret', () => {
    expect(ownerSyncTargetName({ ...AT, owner: eso })).toBe('db-source');
  });

  it('names none for another owner, another kind, an unnamed owner or no owner', () => {
    expect(
      ownerSyncTargetName({
        ...AT,
        owner: { ...eso, tool: 'helm', kind: 'Release', name: 'web' },
      }),
    ).toBeUndefined();
    expect(
      ownerSyncTargetName({
        ...AT,
        owner: { ...eso, kind: 'ClusterExternalSecret' },
      }),
    ).toBeUndefined();
    expect(
      ownerSyncTargetName({ ...AT, owner: { ...eso, name: undefined } }),
    ).toBeUndefined();
    expect(
      ownerSyncTargetName({ ...AT, owner: { ...eso, name: '' } }),
    ).toBeUndefined();
    expect(ownerSyncTargetName(AT)).toBeUndefined();
  });
});

describe('describeOwnerSyncRefusal', () => {
  it.each<[NonNullable<OwnerSyncOffer['refusal']>, string]>([
    [
      'identity',
      'This installation acts on Kubernetes as its own service account, and Krypton asks an owner to sync only as you: run the command above.',
    ],
    [
      'forbidden',
      'Kubernetes does not let you patch the ExternalSecret db-source, so Krypton cannot ask it to sync for you; the command above needs that right too.',
    ],
    [
      'not_found',
      'The ExternalSecret db-source no longer exists, so there is nothing to ask to sync: reload the Secret to see what owns it now.',
    ],
    [
      'replaced',
      'The ExternalSecret db-source was deleted and created again, so it is not the one that owns this Secret as shown: reload the Secret before you sync it.',
    ],
    [
      'rejected',
      'Kubernetes refuses the annotation that asks the ExternalSecret db-source to sync, so Krypton does not offer it; the command above may tell you why.',
    ],
  ])('says why for %s', (refusal, words) => {
    expect(describeOwnerSyncRefusal(refused(refusal), 'other', t)).toBe(words);
  });

  it("names the Secret's owner where the offer names no target", () => {
    expect(
      describeOwnerSyncRefusal(
        { available: false, refusal: 'forbidden' },
        'named',
        t,
      ),
    ).toContain('the ExternalSecret named, so');
  });

  it('says nothing where the offer stands or where no ExternalSecret controls the Secret', () => {
    expect(
      describeOwnerSyncRefusal(
        { available: true, target: TARGET },
        'db-source',
        t,
      ),
    ).toBeUndefined();
    expect(
      describeOwnerSyncRefusal(
        {
          available: false,
          refusal: 'not_supported',
          message: OWNER_SYNC_MESSAGES.not_supported,
        },
        'db-source',
        t,
      ),
    ).toBeUndefined();
  });

  it("gives a newer backend's refusal in the API's fixed words", () => {
    const future = refused('quota' as OwnerSyncOffer['refusal']);
    expect(describeOwnerSyncRefusal(future, 'db-source', t)).toBe(
      'fixed words of the API',
    );
  });
});

describe('describeOwnerSyncResult', () => {
  it('names the ExternalSecret and the annotation value', () => {
    expect(
      describeOwnerSyncResult(
        {
          target: TARGET,
          annotation: { key: 'force-sync', value: '1796464800' },
          requestedAt: '2026-12-05T10:00:00.000Z',
          message: 'fixed',
        },
        t,
      ),
    ).toBe(
      'External Secrets was asked to read ExternalSecret db-source from its store again (force-sync=1796464800). The Secret changes once its controller has done so.',
    );
  });
});
