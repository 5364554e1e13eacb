import {
  SecretListItem,
  SecretSummary,
  RestoreBlock,
  messages,
  restoreBlockOf,
} from '@krypton/core';
import { ownedEditRefusal } from '@krypton/plugin-krypton-react';
import { ActionDecisions } from '../access/decide';
import { KryptonT } from '../../translation';

/**
 * Why no version of this Secret can be restored now, in the user's words, or undefined when
 * restore is offered (the core's restoreBlockOf decides, and the owner's refusal where Krypton
 * does not change a Secret that another tool owns). The API's fixed messages are shown as the
 * server would send them.
 */
export function restoreBlock(
  summary: SecretSummary | SecretListItem | undefined,
  decisions: ActionDecisions | undefined,
  t: KryptonT,
): string | undefined {
  const block = restoreBlockOf(summary, decisions?.restore.allowed);
  if (block === undefined || block === 'denied') {
    // The owner's refusal holds for everyone, so it is the reason, not the user's standing.
    const owned = ownedEditRefusal(summary?.owner, t);
    if (owned !== undefined) return owned;
  }
  if (block === undefined) return undefined;
  const texts: Record<RestoreBlock, () => string> = {
    liveUnreadable: () => t('history.blocks.liveUnreadable'),
    pendingDeletion: () => t('history.blocks.pendingDeletion'),
    immutable: () => t('history.blocks.immutable'),
    serviceAccountToken: () => messages.serviceAccountToken,
    invalidCounter: () => messages.invalidCounter,
    denied: () =>
      t('history.blocks.restoreDenied', {
        reason: decisions?.restore.reason ?? '',
      }).trim(),
  };
  return texts[block]();
}
