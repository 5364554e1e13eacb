// The actions on a Secret, on their own so that the contract (dto.ts) and the access rules
// (access.ts) both name them without importing each other.

/**
 * What a caller wants to do with one Secret.
 *
 * @public
 */
export type SecretAction =
  | 'read'
  | 'reveal'
  | 'update'
  | 'delete'
  | 'restore'
  | 'restart'
  | 'manageAccess';

/**
 * Every action, in the order the Access tab lists them.
 *
 * @public
 */
export const SECRET_ACTIONS: readonly SecretAction[] = [
  'read',
  'reveal',
  'update',
  'restore',
  'restart',
  'delete',
  'manageAccess',
];

/**
 * The Backstage permission policy's answer per action on one Secret, judged by the backend on the
 * live Secret it read as the caller, conditions included. Krypton's access rules and Kubernetes
 * RBAC are judged apart from it.
 *
 * @public
 */
export type SecretPolicyAnswers = Record<SecretAction, boolean>;
