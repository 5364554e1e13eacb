import {
  BackstageCredentials,
  BackstageUserPrincipal,
  HttpAuthService,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  Permission,
} from '@backstage/plugin-permission-common';
import {
  AuthorizeLive,
  KryptonError,
  LiveSecrets,
  NativeSecret,
  Principal,
  SecretAction,
  evaluateAccess,
  kryptonSecretDeletePermission,
  kryptonSecretReadPermission,
  kryptonSecretRestartPermission,
  kryptonSecretRestorePermission,
  kryptonSecretRevealPermission,
  kryptonSecretUpdatePermission,
  messages,
  validateNamespace,
} from '@krypton/plugin-krypton-common';
import { Request } from 'express';
import { KryptonBackendConfig } from '../config';
import { impersonationFor } from '../identity';
import { Cluster } from '../kubernetes/clusters';
import { KubeSecretGateway } from '../kubernetes/secretGateway';

const PERMISSION_FOR: Record<SecretAction, Permission> = {
  read: kryptonSecretReadPermission,
  reveal: kryptonSecretRevealPermission,
  update: kryptonSecretUpdatePermission,
  manageAccess: kryptonSecretUpdatePermission,
  delete: kryptonSecretDeletePermission,
  restore: kryptonSecretRestorePermission,
  restart: kryptonSecretRestartPermission,
};

export interface SecretRequestContext {
  cluster: Cluster;
  namespace: string;
  credentials: BackstageCredentials<BackstageUserPrincipal>;
  live: LiveSecrets;
  authorize: AuthorizeLive;
  /** Whether the Secret's access rules let the user see it in a list. */
  mayList(secret: NativeSecret): boolean;
  /** Which Secret an audit event is about; never anything from its data. */
  auditMeta(name: string): Record<string, string>;
}

export interface ContextDeps {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  httpAuth: HttpAuthService;
  userInfo: UserInfoService;
  permissions: PermissionsService;
}

/** Fails with 403 unless the Backstage permission policy allows every check. */
export async function authorizePermissions(
  permissions: PermissionsService,
  credentials: BackstageCredentials,
  checks: Array<{ permission: Permission; resourceRef?: string }>,
): Promise<void> {
  const decisions = await permissions.authorize(
    checks.map(c =>
      c.resourceRef === undefined
        ? { permission: c.permission }
        : { permission: c.permission, resourceRef: c.resourceRef },
    ) as Parameters<PermissionsService['authorize']>[0],
    { credentials },
  );
  if (decisions.some(d => d.result !== AuthorizeResult.ALLOW)) {
    throw new KryptonError('forbidden', messages.forbiddenPermission);
  }
}

/**
 * Resolves, for one request, who the user is, which cluster and namespace it targets, the
 * gateway to use for live Secrets, and the gate that every route runs on the live object.
 */
export function createContextResolver(deps: ContextDeps) {
  const { config, clusters, httpAuth, userInfo, permissions } = deps;
  const clusterByName = new Map(clusters.map(c => [c.name, c]));

  return async function context(req: Request): Promise<SecretRequestContext> {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    const info = await userInfo.getUserInfo(credentials);
    const principal: Principal = {
      userEntityRef: info.userEntityRef,
      ownershipEntityRefs: info.ownershipEntityRefs,
    };
    const clusterName = req.params.cluster ?? clusters[0].name;
    const cluster = clusterByName.get(clusterName);
    if (!cluster) throw new KryptonError('not_found', 'Unknown cluster.');
    const namespace = validateNamespace(req.params.namespace);
    // Live Secrets are read and written as the user, except in serviceAccount mode. Headers that
    // the client sent never reach Kubernetes: the impersonation comes from the Backstage identity.
    const gateway = new KubeSecretGateway(
      cluster.transport,
      config.identity === 'serviceAccount'
        ? undefined
        : impersonationFor(principal, config),
    );
    const live = new LiveSecrets({
      gateway,
      cluster: cluster.name,
      annotationPrefix: config.annotationPrefix,
      managedOnly: config.managedOnly,
      historyLimit: config.historyLimit,
    });
    const aclDenies = (secret: NativeSecret, action: SecretAction) =>
      evaluateAccess(
        live.accessRules(secret),
        principal,
        action,
        config.admins,
      ) === 'deny';
    const authorize: AuthorizeLive = async (secret, actions) => {
      const resourceRef = `${cluster.name}/${namespace}/${secret.metadata.name}`;
      await authorizePermissions(
        permissions,
        credentials,
        [...new Set(actions.map(a => PERMISSION_FOR[a]))].map(permission => ({
          permission,
          resourceRef,
        })),
      );
      if (actions.some(action => aclDenies(secret, action))) {
        throw new KryptonError('forbidden', messages.forbiddenAcl);
      }
    };
    const auditMeta = (name: string) => ({
      cluster: cluster.name,
      namespace,
      name,
    });
    return {
      cluster,
      namespace,
      credentials,
      live,
      authorize,
      mayList: secret => !aclDenies(secret, 'read'),
      auditMeta,
    };
  };
}
