import { AccessRules } from './dto';
import { hasAccessRules } from './annotations';

/** What a caller wants to do with one Secret. */
export type SecretAction =
  | 'read'
  | 'reveal'
  | 'update'
  | 'delete'
  | 'restore'
  | 'restart'
  | 'manageAccess';

const VIEWER: readonly SecretAction[] = ['read', 'reveal'];
const EDITOR: readonly SecretAction[] = [
  ...VIEWER,
  'update',
  'restore',
  'restart',
];
const OWNER: readonly SecretAction[] = [...EDITOR, 'delete', 'manageAccess'];

/** The signed-in Backstage user: their own ref and every ref they own through (groups). */
export interface Principal {
  userEntityRef: string;
  ownershipEntityRefs: string[];
}

export type AclDecision = 'allow' | 'deny' | 'no-rules';

const norm = (ref: string) => ref.trim().toLocaleLowerCase('en-US');

/**
 * Evaluates a Secret's current access rules. Owners may do everything, editors may read, reveal,
 * update, restore and restart, viewers may read and reveal. A Secret without rules gives
 * 'no-rules': the other gates (Kubernetes RBAC, Backstage permissions) decide alone. Admins pass
 * any rules.
 */
export function evaluateAccess(
  rules: AccessRules,
  principal: Principal,
  action: SecretAction,
  admins: readonly string[] = [],
): AclDecision {
  if (!hasAccessRules(rules)) return 'no-rules';
  const mine = new Set(
    [principal.userEntityRef, ...principal.ownershipEntityRefs].map(norm),
  );
  const holds = (refs: string[]) => refs.some(r => mine.has(norm(r)));
  if (holds([...admins])) return 'allow';
  if (holds(rules.owners) && OWNER.includes(action)) return 'allow';
  if (holds(rules.editors) && EDITOR.includes(action)) return 'allow';
  if (holds(rules.viewers) && VIEWER.includes(action)) return 'allow';
  return 'deny';
}
