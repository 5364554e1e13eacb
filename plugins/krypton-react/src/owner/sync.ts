import type {
  OwnerSyncOffer,
  OwnerSyncRefusal,
  OwnerSyncResult,
} from '@krypton/core';
import type { OwnerT, OwnerTextKey, OwnershipFacts } from './describe';

/**
 * The ExternalSecret that a sync would ask, by name, or undefined where the Secret names none:
 * only then is an offer worth asking for, since the backend asks nothing else to sync.
 *
 * @public
 */
export function ownerSyncTargetName(facts: OwnershipFacts): string | undefined {
  const { owner } = facts;
  if (owner?.tool !== 'external-secrets' || owner.kind !== 'ExternalSecret') {
    return undefined;
  }
  return owner.name || undefined;
}

const REFUSAL_KEYS: Record<
  Exclude<OwnerSyncRefusal, 'not_supported'>,
  OwnerTextKey
> = {
  identity: 'owner.sync.refusals.identity',
  forbidden: 'owner.sync.refusals.forbidden',
  not_found: 'owner.sync.refusals.not_found',
  replaced: 'owner.sync.refusals.replaced',
  rejected: 'owner.sync.refusals.rejected',
};

/**
 * Why there is no sync button, in the user's terms; undefined where the offer stands, and where no
 * ExternalSecret controls the Secret (`not_supported`): the banner's command says all there is.
 * `name` is the ExternalSecret as the Secret names it, for an offer that names none.
 *
 * @public
 */
export function describeOwnerSyncRefusal(
  offer: OwnerSyncOffer,
  name: string,
  t: OwnerT,
): string | undefined {
  if (offer.available || offer.refusal === 'not_supported') return undefined;
  const key = offer.refusal
    ? (REFUSAL_KEYS[offer.refusal] as OwnerTextKey | undefined)
    : undefined;
  // A refusal that a newer backend added still says why, in the API's fixed words.
  if (!key) return offer.message;
  return t(key, { name: offer.target?.name ?? name });
}

/**
 * What a sync request did, in words: which ExternalSecret was asked, with the annotation's value,
 * and that the Secret changes only once External Secrets' controller has read the store.
 *
 * @public
 */
export function describeOwnerSyncResult(
  result: OwnerSyncResult,
  t: OwnerT,
): string {
  return t('owner.sync.requested', {
    name: result.target.name,
    value: result.annotation.value,
  });
}
