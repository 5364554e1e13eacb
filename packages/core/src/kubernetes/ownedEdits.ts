import { OwnedEditOutcome, SecretOwner, SecretOwnerTool } from '../dto';
import { KryptonError } from '../errors';
import { OwnedSecretRules, recognizeOwner } from './secretOwner';
import { ObjectMeta } from './types';

/**
 * The operations on a live Secret that another tool's write-back would undo or that would take
 * the Secret from under its owner.
 *
 * @public
 */
export type OwnedOperation = 'update' | 'restore' | 'adopt' | 'delete';

/**
 * An edit of an owned Secret that the installation allows: whose it is and the user's reason, for
 * the audit event and the notification.
 *
 * @public
 */
export interface OwnedEdit {
  owner: SecretOwner;
  reason: string;
}

const TOOL_NAMES: Record<SecretOwnerTool, string> = {
  'external-secrets': 'External Secrets',
  'sealed-secrets': 'Sealed Secrets',
  'vault-secrets-operator': 'Vault Secrets Operator',
  infisical: 'Infisical',
  argocd: 'Argo CD',
  flux: 'Flux',
  helm: 'Helm',
  'cert-manager': 'cert-manager',
  controller: 'a controller',
};

const OUTCOMES: Record<OwnedEditOutcome, string> = {
  'reverted-at-once': 'which writes its own data back within seconds',
  'reverted-at-once-or-refresh':
    'which writes its own data back within seconds or at its next refresh',
  'reverted-at-refresh': 'which writes its own data back at its next refresh',
  'reverted-at-sync': 'which writes its own data back at its next sync',
  'replaced-at-once': 'which issues a new certificate and key at once',
  'lost-later':
    'which replaces the Secret when its source changes or its controller restarts',
  'reverted-at-upgrade': 'whose next upgrade writes its own data back',
  kept: 'which is set to leave it',
  unknown: 'which may write its own state back at any time',
};

/**
 * The owner as a refusal names it: the tool, then the owning object's kind and name where the
 * metadata gives them (names only, which recognizeOwner has checked).
 *
 * @public
 */
export function describeOwner(owner: SecretOwner): string {
  const object = [owner.kind, owner.name].filter(Boolean).join(' ');
  return object
    ? `${TOOL_NAMES[owner.tool]} (${object})`
    : TOOL_NAMES[owner.tool];
}

/** The refusal of an edit of an owned Secret: fixed words around the owner's kind and name. */
function ownedEditRefused(
  owner: SecretOwner,
  operation: OwnedOperation,
): string {
  return `This Secret is owned by ${describeOwner(owner)}, ${
    OUTCOMES[owner.outcome]
  }. Krypton does not ${operation} a Secret that another tool owns on this deployment: change it at its source.`;
}

/** The answer to an allowed edit of an owned Secret that came without its reason. */
function ownedEditNeedsReason(
  owner: SecretOwner,
  operation: OwnedOperation,
): string {
  return `This Secret is owned by ${describeOwner(owner)}, ${
    OUTCOMES[owner.outcome]
  }. To ${operation} it through Krypton anyway, give your reason ("ownedEditReason").`;
}

/**
 * Admits an update, restore, adopt or delete of the live Secret as its owner allows it: nothing to
 * say for a Secret that no tool owns or whose owner is set to leave it; a 409 that names the owner
 * when the installation does not allow its edits, or allows them but no reason came; otherwise
 * the owner and the reason, which the caller records.
 *
 * @public
 */
export function admitOwnedEdit(
  meta: ObjectMeta,
  operation: OwnedOperation,
  reason: string | undefined,
  rules: OwnedSecretRules,
): OwnedEdit | undefined {
  const owner = recognizeOwner(meta, rules);
  if (!owner || owner.edits === 'allowed') return undefined;
  if (owner.edits === 'refused') {
    throw new KryptonError('conflict', ownedEditRefused(owner, operation));
  }
  if (reason === undefined) {
    throw new KryptonError('conflict', ownedEditNeedsReason(owner, operation));
  }
  return { owner, reason };
}
