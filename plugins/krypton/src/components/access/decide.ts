import { SECRET_ACTION_PERMISSIONS } from '@krypton/plugin-krypton-common';
import {
  AccessPolicy,
  AccessRules,
  IdentityMode,
  Principal,
  SECRET_ACTIONS,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SecretAction,
  SecretOwner,
  evaluateAccess,
  hasAccessRules,
  messages,
} from '@krypton/core';
import { ownedEditRefusal } from '@krypton/plugin-krypton-react';
import { KryptonT } from '../../translation';

export { SECRET_ACTIONS };

/** An action's name for people, as the Access tab lists it. */
export const actionLabel = (t: KryptonT, action: SecretAction): string =>
  t(`access.actions.${action}`);

/** The same answer for every action, as a permission policy's answers. */
export function permitAll(allowed: boolean): Record<SecretAction, boolean> {
  return Object.fromEntries(
    SECRET_ACTIONS.map(action => [action, allowed]),
  ) as Record<SecretAction, boolean>;
}

export type SecretRole =
  | 'admin'
  | 'owner'
  | 'editor'
  | 'viewer'
  | 'none'
  | 'no-rules';

export interface ActionDecision {
  allowed: boolean;
  /** Why not, in words for the user; set whenever allowed is false. */
  reason?: string;
}

export type ActionDecisions = Record<SecretAction, ActionDecision>;

export interface AccessInputs {
  /** The Secret's rules as the backend reported them (normalized refs). */
  rules: AccessRules;
  principal: Principal;
  /** Unknown while or when the deployment's settings could not be read. */
  identityMode?: IdentityMode;
  restartEnabled?: boolean;
  /**
   * Whether the backend served this Secret to the user, which it does only after the Secret's
   * read rules passed on the server.
   */
  served: boolean;
  /** The Backstage permission policy's answer per action. */
  permitted: Record<SecretAction, boolean>;
}

function policyOf(inputs: AccessInputs): AccessPolicy {
  // krypton.admins is backend-only configuration, so the frontend starts from no admins and
  // infers admin rights from what the server served (see isInferredAdmin).
  return {
    admins: [],
    rulesRequired: inputs.identityMode === 'serviceAccount',
  };
}

/**
 * The server applies the same rules before it serves a Secret, and only krypton.admins pass rules
 * that deny them. So a served Secret whose rules deny this user read access means the user is an
 * admin, and the rules must not hide actions the server will allow.
 */
function isInferredAdmin(inputs: AccessInputs): boolean {
  return (
    inputs.served &&
    evaluateAccess(inputs.rules, inputs.principal, 'read', policyOf(inputs)) ===
      'deny'
  );
}

/** The user's standing under the Secret's rules, for the Access tab. */
export function secretRole(inputs: AccessInputs): SecretRole {
  if (isInferredAdmin(inputs)) return 'admin';
  if (!hasAccessRules(inputs.rules)) return 'no-rules';
  const allows = (action: SecretAction) =>
    evaluateAccess(inputs.rules, inputs.principal, action, policyOf(inputs)) ===
    'allow';
  if (allows('manageAccess')) return 'owner';
  if (allows('update')) return 'editor';
  if (allows('reveal')) return 'viewer';
  return 'none';
}

function ruleReason(
  action: SecretAction,
  inputs: AccessInputs,
  t: KryptonT,
): string {
  if (!hasAccessRules(inputs.rules)) return t('access.reasons.noRules');
  switch (action) {
    case 'read':
    case 'reveal':
      return t('access.reasons.notAMember');
    case 'update':
    case 'restore':
    case 'restart':
      return t('access.reasons.editorsOnly');
    default:
      return t('access.reasons.ownersOnly');
  }
}

/**
 * What the user may do with one Secret, as far as the frontend can tell: the permission policy,
 * the Secret's access rules and the deployment's restart switch. Kubernetes RBAC is not visible
 * here; the backend reports its refusals when the user acts. The reasons are worded with `t`.
 */
export function decideActions(
  inputs: AccessInputs,
  t: KryptonT,
): ActionDecisions {
  const admin = isInferredAdmin(inputs);
  const policy = policyOf(inputs);
  const decide = (action: SecretAction): ActionDecision => {
    // The backend checks the restart switch before anything else, so its reason comes first.
    if (action === 'restart' && inputs.restartEnabled === false) {
      return { allowed: false, reason: `${messages.restartDisabled}.` };
    }
    // Restart has the gates of an update of the Secret as well as its own, as the backend does.
    const needed: SecretAction[] =
      action === 'restart' ? ['update', 'restart'] : [action];
    const unpermitted = needed.find(a => !inputs.permitted[a]);
    if (unpermitted) {
      return {
        allowed: false,
        reason: t('access.reasons.notPermitted', {
          permission: SECRET_ACTION_PERMISSIONS[unpermitted].name,
        }),
      };
    }
    const refused = needed.find(
      a =>
        !admin &&
        evaluateAccess(inputs.rules, inputs.principal, a, policy) === 'deny',
    );
    if (refused) {
      return { allowed: false, reason: ruleReason(refused, inputs, t) };
    }
    return { allowed: true };
  };
  const out = {} as ActionDecisions;
  for (const action of SECRET_ACTIONS) out[action] = decide(action);
  return out;
}

/**
 * The decisions, less what the Secret's type rules out whoever asks: the backend refuses every
 * change of a service-account token Secret (422), so the page offers none.
 */
export function limitByType(
  decisions: ActionDecisions,
  type: string,
): ActionDecisions {
  if (type !== SERVICE_ACCOUNT_TOKEN_TYPE) return decisions;
  const refused = { allowed: false, reason: messages.serviceAccountToken };
  return {
    ...decisions,
    // The backend never answers these values, so the page never asks for them.
    reveal: { allowed: false, reason: messages.serviceAccountTokenValues },
    update: refused,
    manageAccess: refused,
    restore: refused,
  };
}

/**
 * The decisions, less the changes that the Secret's owner rules out whoever asks: where Krypton
 * refuses changes of a Secret that another tool owns (`edits: refused`), the backend answers
 * every update, restore and delete with 409, so the page offers none and says why. An owner whose
 * rule asks for a reason, or lets the change through, leaves the decisions as they are: the forms
 * ask for the reason.
 */
export function limitByOwner(
  decisions: ActionDecisions,
  owner: SecretOwner | undefined,
  t: KryptonT,
): ActionDecisions {
  const reason = ownedEditRefusal(owner, t);
  if (reason === undefined) return decisions;
  const refused = { allowed: false, reason };
  return {
    ...decisions,
    update: refused,
    // The rules and the description are written by an update too.
    manageAccess: refused,
    restore: refused,
    delete: refused,
  };
}
