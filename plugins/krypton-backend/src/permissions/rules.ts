import { ACCESS_ROLES, AccessRole, holdsAccessRole } from '@krypton/core';
import { createPermissionRule } from '@backstage/plugin-permission-node';
import { z } from 'zod';
import {
  KryptonSecretFilter,
  KryptonSecretResource,
  kryptonSecretResourceRef,
} from './resource';

/**
 * A rule's query is its own predicate (see KryptonSecretFilter), so that conditions filter a
 * list exactly as they judge one Secret.
 */
function asFilter<P>(
  apply: (resource: KryptonSecretResource, params: P) => boolean,
) {
  return (params: P): KryptonSecretFilter =>
    resource =>
      apply(resource, params);
}

const isClusterApply = (
  resource: KryptonSecretResource,
  params: { cluster: string },
) => resource.cluster === params.cluster;

const isCluster = createPermissionRule({
  name: 'IS_CLUSTER',
  description: 'Allow Secrets on the named cluster (as configured for Krypton)',
  resourceRef: kryptonSecretResourceRef,
  paramsSchema: z.object({
    cluster: z.string().describe('Name of the cluster'),
  }),
  apply: isClusterApply,
  toQuery: asFilter(isClusterApply),
});

const isNamespaceApply = (
  resource: KryptonSecretResource,
  params: { namespace: string },
) => resource.namespace === params.namespace;

const isNamespace = createPermissionRule({
  name: 'IS_NAMESPACE',
  description: 'Allow Secrets in the named Kubernetes namespace',
  resourceRef: kryptonSecretResourceRef,
  paramsSchema: z.object({
    namespace: z.string().describe('Name of the namespace'),
  }),
  apply: isNamespaceApply,
  toQuery: asFilter(isNamespaceApply),
});

const hasLabelApply = (
  resource: KryptonSecretResource,
  params: { label: string; value?: string },
) =>
  Object.prototype.hasOwnProperty.call(resource.labels, params.label) &&
  (params.value === undefined ||
    resource.labels[params.label] === params.value);

const hasLabel = createPermissionRule({
  name: 'HAS_LABEL',
  description:
    'Allow Secrets that carry the label, with the given value when one is given',
  resourceRef: kryptonSecretResourceRef,
  paramsSchema: z.object({
    label: z.string().describe('Label key'),
    value: z.string().optional().describe('Label value'),
  }),
  apply: hasLabelApply,
  toQuery: asFilter(hasLabelApply),
});

const isManagedApply = (resource: KryptonSecretResource) => resource.managed;

const isManaged = createPermissionRule({
  name: 'IS_MANAGED',
  description: 'Allow Secrets that Krypton created or adopted',
  resourceRef: kryptonSecretResourceRef,
  apply: isManagedApply,
  toQuery: () => isManagedApply,
});

const hasAccessRoleApply = (
  resource: KryptonSecretResource,
  params: { role: AccessRole; claims: string[] },
) => holdsAccessRole(resource.access, params.claims, params.role);

const hasAccessRole = createPermissionRule({
  name: 'HAS_ACCESS_ROLE',
  description:
    "Allow Secrets whose own access rules give one of the claims the role or a greater one (owner > editor > viewer); pass the user's ownership refs as claims",
  resourceRef: kryptonSecretResourceRef,
  paramsSchema: z.object({
    role: z
      .enum(ACCESS_ROLES as [AccessRole, ...AccessRole[]])
      .describe('owner, editor or viewer'),
    claims: z
      .array(z.string())
      .describe("The user's entity ref and ownership refs"),
  }),
  apply: hasAccessRoleApply,
  toQuery: asFilter(hasAccessRoleApply),
});

/** Krypton's permission rules for the krypton-secret resource type. */
export const kryptonSecretRules = {
  isCluster,
  isNamespace,
  hasLabel,
  isManaged,
  hasAccessRole,
};
