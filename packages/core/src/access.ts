import { AccessRules } from './dto';
import { hasAccessRules } from './annotations';
import { tryNormalizeEntityRef } from './entityRefs';
import { SecretAction } from './secretActions';

const VIEWER: readonly SecretAction[] = ['read', 'reveal'];
const EDITOR: readonly SecretAction[] = [
  ...VIEWER,
  'update',
  'restore',
  'restart',
];
const OWNER: readonly SecretAction[] = [...EDITOR, 'delete', 'manageAccess'];

/**
 * The signed-in Backstage user: their own ref and every ref they own through (groups).
 *
 * @public
 */
export interface Principal {
  userEntityRef: string;
  ownershipEntityRefs: string[];
}

/** @public */
export type AclDecision = 'allow' | 'deny' | 'no-rules';

/** @public */
export interface AccessPolicy {
  /** Normalized user or group refs that pass any rules. */
  admins: readonly string[];
  /**
   * Whether a Secret without rules is refused to everyone but admins. It must be, where no
   * Kubernetes RBAC stands behind Krypton's own gates (serviceAccount mode).
   */
  rulesRequired: boolean;
}

/** The normalized refs a principal acts as. */
function principalRefs(principal: Principal): Set<string> {
  const refs = new Set<string>();
  for (const ref of [
    principal.userEntityRef,
    ...principal.ownershipEntityRefs,
  ]) {
    const normal = tryNormalizeEntityRef(ref);
    if (normal) refs.add(normal);
  }
  return refs;
}

/**
 * Whether the principal is, or acts for, one of the admins (normalized refs).
 *
 * @public
 */
export function isAdmin(
  principal: Principal,
  admins: readonly string[],
): boolean {
  const mine = principalRefs(principal);
  return admins.some(r => mine.has(r));
}

/**
 * Evaluates a Secret's current access rules. Owners may do everything, editors may read, reveal,
 * update, restore and restart, viewers may read and reveal. Admins pass any rules. A Secret
 * without rules gives 'no-rules' (the other gates decide alone) unless the policy requires rules,
 * when it is refused to everyone but admins. Rules hold normalized refs (see readAccessRules).
 *
 * @public
 */
export function evaluateAccess(
  rules: AccessRules,
  principal: Principal,
  action: SecretAction,
  policy: AccessPolicy,
): AclDecision {
  // The principal's refs are normalized once per call: this runs for every Secret of a list.
  const mine = principalRefs(principal);
  const holds = (refs: readonly string[]) => refs.some(r => mine.has(r));
  if (holds(policy.admins)) return 'allow';
  if (!hasAccessRules(rules)) return policy.rulesRequired ? 'deny' : 'no-rules';
  if (holds(rules.owners) && OWNER.includes(action)) return 'allow';
  if (holds(rules.editors) && EDITOR.includes(action)) return 'allow';
  if (holds(rules.viewers) && VIEWER.includes(action)) return 'allow';
  return 'deny';
}

/**
 * A role of a Secret's access rules, from the least to the most.
 *
 * @public
 */
export type AccessRole = 'viewer' | 'editor' | 'owner';

/** @public */
export const ACCESS_ROLES: readonly AccessRole[] = [
  'viewer',
  'editor',
  'owner',
];

/**
 * Whether any of the claims (entity refs, normalized here) holds the role or a greater one in a
 * Secret's rules: an owner is also an editor and a viewer, as the actions of each are.
 *
 * @public
 */
export function holdsAccessRole(
  rules: AccessRules,
  claims: readonly string[],
  role: AccessRole,
): boolean {
  const mine = new Set<string>();
  for (const claim of claims) {
    const normal = tryNormalizeEntityRef(claim);
    if (normal) mine.add(normal);
  }
  const lists = {
    owner: [rules.owners],
    editor: [rules.owners, rules.editors],
    viewer: [rules.owners, rules.editors, rules.viewers],
  }[role];
  return lists.some(refs => refs.some(r => mine.has(r)));
}
