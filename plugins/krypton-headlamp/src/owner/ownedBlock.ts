import { SecretOwner } from '@krypton/core';
import {
  englishOwnerT,
  ownedEditRefusal,
  ownedEditsOf,
  ownerToolName,
} from '@krypton/plugin-krypton-react';
import { text } from '../messages';

/**
 * Why Krypton does not change this Secret inside Headlamp, or undefined where it does. Headlamp
 * has no installation settings, so only an owner that is set to leave the Secret (`allowed`) lets
 * a change through: an owner whose rule asks for a reason is refused as well, since this plugin
 * has no field to give one.
 */
export function ownedChangeBlock(
  owner: SecretOwner | undefined,
): string | undefined {
  if (!owner || ownedEditsOf(owner) === 'allowed') return undefined;
  return (
    ownedEditRefusal(owner, englishOwnerT) ??
    text.owner.needsReason(ownerToolName(owner, englishOwnerT))
  );
}
