import {
  BackstageCredentials,
  BackstageUserPrincipal,
  LoggerService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import {
  PolicyDecision,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import {
  KRYPTON_SECRET_RESOURCE_TYPE,
  SECRET_ACTION_PERMISSIONS,
} from '@krypton/plugin-krypton-common';
import {
  AccessPolicy,
  KryptonError,
  Principal,
  SECRET_ACTIONS,
  SecretAction,
  SecretPolicyAnswers,
  SecretWriteAnswer,
  evaluateAccess,
  messages,
  isSnapshotName,
  tryNormalizeEntityRef,
  validateNamespace,
  validateSecretName,
  LiveGate,
  LiveSecrets,
  NativeSecret,
  RequestGateways,
  RestartConsumers,
  StorageRewrite,
  VALUE_ACTIONS,
  VersionedSecrets,
  createEngines,
  fromKubeError,
  valuesShown,
} from '@krypton/core';
import { Request } from 'express';
import { KryptonBackendConfig } from '../config';
import { impersonationFor } from '../identity';
import { Cluster } from '../kubernetes/clusters';
import { HttpKubeGateway } from '../kubernetes/kubeGateway';
import { SecretChange } from '../notifications';
import { PolicyGate, ResourceDecision } from '../permissions/policyGate';
import { KryptonSecretResource, secretResource } from '../permissions/resource';
import { timed } from '../diagnostics/serverTiming';

/** Who calls a service, on which cluster: what a route or an action knows before any check. */
export interface CallerInput {
  credentials: BackstageCredentials<BackstageUserPrincipal>;
  /** A configured cluster's name; the default cluster when absent. */
  cluster?: string;
  /** The HTTP request behind the call, which the audit event records; an action has none. */
  request?: Request;
}

/** A call about the Secrets of one namespace; the namespace is validated by the service. */
export interface SecretTarget extends CallerInput {
  namespace: string;
}

/**
 * The rule for a Secret's name on every named operation: malformed names are 400, and history
 * snapshot names are 404 for everyone, admins included, whatever KRYPTON_MANAGED_ONLY says.
 */
export function admitSecretName(name: string): string {
  validateSecretName(name);
  if (isSnapshotName(name))
    throw new KryptonError('not_found', messages.notFound);
  return name;
}

/** Who asks and on which cluster, once identified. */
export interface ClusterRequestContext {
  /** The HTTP request behind the call, for the audit event. */
  request?: Request;
  cluster: Cluster;
  credentials: BackstageCredentials<BackstageUserPrincipal>;
  principal: Principal;
  /** The user's normalized entity ref, as history and restart records name them. */
  actor: string;
  /** The user's identity and Krypton's own; engines choose per call (engineGateways). */
  gateways: RequestGateways;
}

export interface SecretRequestContext extends ClusterRequestContext {
  namespace: string;
  live: LiveSecrets;
  /** Writes that history stands behind: update, restore, delete, versions. */
  versioned: VersionedSecrets;
  /** Workload discovery and restarts, with the workload identity of the mode. */
  restart: RestartConsumers;
  gate: LiveGate;
  /** What a permission policy's conditions see of a Secret of this namespace. */
  resourceOf(secret: NativeSecret): KryptonSecretResource;
  /**
   * The policy's decisions on these permissions: a DENY is a 403 at once; what comes back judges
   * a Secret (conditions, or always true for an ALLOW).
   */
  policyOn(
    permissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
  ): Promise<ResourceDecision>;
  /** Refuses (403) a Secret that the policy's decision does not allow. */
  requirePolicy(allows: ResourceDecision, secret: NativeSecret): void;
  /**
   * Sends the policy question of these actions now, so that the permission request (the slowest
   * step of a read) runs beside the work before the gate, such as writing the audit event; the
   * gate then takes this request's answer instead of asking again.
   */
  askEarly(actions: readonly SecretAction[]): void;
  /**
   * The policy's answer per action on this Secret, conditions judged on it: what the portal's
   * buttons follow. Asks every action's permission (in one request, with whatever was asked).
   */
  policyAnswers(resource: KryptonSecretResource): Promise<SecretPolicyAnswers>;
  /** Whether the Secret's access rules let the user see it in a list. */
  mayList(secret: NativeSecret): boolean;
  /**
   * Whether the user may have this Secret's values, or anything derived from them, given the
   * policy's answer on revealing them: the gates of a value read (LiveSecrets.get), the policy,
   * the access rules, then the type (a service-account token's values never).
   */
  mayReveal(secret: NativeSecret, policyAllowsReveal: boolean): boolean;
  /**
   * Starts the reveal check of a write's answer beside the write; the returned function shapes
   * the written Secret: with its values only for a user who may reveal them. The write's own
   * permissions go to the policy in the same request, so that a write costs one round trip to
   * the permission backend, not two.
   */
  answerFor(
    writePermissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
  ): (secret: NativeSecret) => Promise<SecretWriteAnswer>;
  /**
   * Refuses (403) a create or adopt where the mode's limits forbid it: in serviceAccount mode,
   * only the configured namespaces, and (when given) only the configured Secret types.
   */
  admitPlacement(type?: string): void;
  /** Which Secret an audit event is about; never anything from its data. */
  auditMeta(name: string): Record<string, string>;
  /** Which Secret a notification or signal is about and who changed it, from the object the write saw. */
  changeOf(
    secret: NativeSecret,
  ): Pick<SecretChange, 'secret' | 'uid' | 'actor'>;
}

export interface ContextDeps {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  userInfo: UserInfoService;
  policy: PolicyGate;
  logger: LoggerService;
}

/** The Backstage permissions of the Secret actions. */
export function permissionsFor(
  actions: readonly SecretAction[],
): ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[] {
  return [...new Set(actions.map(a => SECRET_ACTION_PERMISSIONS[a]))];
}

const refusedByPolicy = () =>
  new KryptonError('forbidden', messages.forbiddenPermission);

/**
 * Resolves, for one request, who the user is, which cluster and namespace it targets, the
 * gateways of both identities, and the gate that every route runs on the live object.
 */
export function createContextResolver(deps: ContextDeps) {
  const { config, clusters, userInfo, policy, logger } = deps;
  const clusterByName = new Map(clusters.map(c => [c.name, c]));
  const accessPolicy: AccessPolicy = {
    admins: config.admins,
    // Without Kubernetes RBAC behind Krypton, a Secret without rules must not be open to all.
    rulesRequired: config.identity === 'serviceAccount',
  };

  /** Who asks, on which cluster, and the gateways of both identities. */
  async function identify(input: CallerInput): Promise<ClusterRequestContext> {
    const { credentials, request } = input;
    const cluster = clusterByName.get(input.cluster ?? clusters[0].name);
    if (!cluster) throw new KryptonError('not_found', 'Unknown cluster.');
    const info = await timed('user', () => userInfo.getUserInfo(credentials));
    const principal: Principal = {
      userEntityRef: info.userEntityRef,
      ownershipEntityRefs: info.ownershipEntityRefs,
    };
    // Headers that the client sent never reach Kubernetes: the impersonation comes only from the
    // Backstage identity.
    const krypton = new HttpKubeGateway(cluster.transport, logger);
    const gateways: RequestGateways = {
      krypton,
      user:
        config.identity === 'serviceAccount'
          ? krypton
          : new HttpKubeGateway(
              cluster.transport,
              logger,
              impersonationFor(principal, config),
            ),
    };
    const actor =
      tryNormalizeEntityRef(principal.userEntityRef) ?? principal.userEntityRef;
    return { request, cluster, credentials, principal, actor, gateways };
  }

  async function context(target: SecretTarget): Promise<SecretRequestContext> {
    const namespace = validateNamespace(target.namespace);
    const { request, cluster, credentials, principal, actor, gateways } =
      await identify(target);
    const { live, versioned, restart } = createEngines({
      mode: config.identity,
      gateways,
      cluster: cluster.name,
      settings: config,
      actor,
    });
    const aclDenies = (secret: NativeSecret, action: SecretAction) =>
      evaluateAccess(
        live.accessRules(secret),
        principal,
        action,
        accessPolicy,
      ) === 'deny';
    const resourceOf = (secret: NativeSecret) => secretResource(live, secret);
    const mayReveal = (secret: NativeSecret, policyAllowsReveal: boolean) =>
      policyAllowsReveal &&
      !VALUE_ACTIONS.some(action => aclDenies(secret, action)) &&
      valuesShown(secret);
    // Each permission is asked once per request, and what is asked together goes in one request
    // to the permission backend, which costs a token, an HTTP round trip and the policy each time.
    const decisions = new Map<string, Promise<PolicyDecision>>();
    const ask = (
      permissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
    ) => {
      const missing = [
        ...new Map(
          permissions.filter(p => !decisions.has(p.name)).map(p => [p.name, p]),
        ).values(),
      ];
      if (missing.length === 0) return;
      const batch = policy.ask(credentials, missing);
      missing.forEach((permission, i) => {
        const decision = batch.then(all => all[i]);
        // Observed by whoever needs it; a decision nobody asks for again must not count as an
        // unhandled rejection when the permission backend fails.
        decision.catch(() => undefined);
        decisions.set(permission.name, decision);
      });
    };
    const policyOn = async (
      permissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
    ) => {
      ask(permissions);
      return policy.judge(
        await Promise.all(permissions.map(p => decisions.get(p.name)!)),
      );
    };
    const requirePolicy = (allows: ResourceDecision, secret: NativeSecret) => {
      if (!allows(resourceOf(secret))) throw refusedByPolicy();
    };
    const gate: LiveGate = {
      permit: async actions => {
        const allows = await policyOn(permissionsFor(actions));
        return secret => requirePolicy(allows, secret);
      },
      admit: (secret, actions) => {
        if (actions.some(action => aclDenies(secret, action))) {
          throw new KryptonError('forbidden', messages.forbiddenAcl);
        }
      },
    };
    return {
      request,
      cluster,
      namespace,
      credentials,
      principal,
      actor,
      gateways,
      live,
      versioned,
      restart,
      gate,
      resourceOf,
      policyOn,
      requirePolicy,
      askEarly: actions => ask(permissionsFor(actions)),
      policyAnswers: async resource => {
        ask(permissionsFor(SECRET_ACTIONS));
        const answers = await Promise.all(
          SECRET_ACTIONS.map(action =>
            policyOn(permissionsFor([action])).then(
              allows => allows(resource),
              err => {
                if (err instanceof KryptonError && err.code === 'forbidden')
                  return false;
                throw err;
              },
            ),
          ),
        );
        return Object.fromEntries(
          SECRET_ACTIONS.map((action, i) => [action, answers[i]]),
        ) as SecretPolicyAnswers;
      },
      mayList: secret => !aclDenies(secret, 'read'),
      mayReveal,
      answerFor: writePermissions => {
        ask([...writePermissions, ...permissionsFor(VALUE_ACTIONS)]);
        // Fails closed: a permission backend that errs after the write withholds the values
        // rather than turning a write that happened into an error.
        const permitted = policyOn(permissionsFor(VALUE_ACTIONS)).catch(
          (): ResourceDecision => () => false,
        );
        return async secret =>
          mayReveal(secret, (await permitted)(resourceOf(secret)))
            ? live.toDto(secret)
            : { ...live.toSummary(secret), valuesOmitted: true };
      },
      admitPlacement: type => {
        if (config.identity !== 'serviceAccount') return;
        const limits = config.serviceAccountMode;
        if (!limits.namespaces.has(namespace))
          throw new KryptonError('forbidden', messages.namespaceNotAllowed);
        if (type !== undefined && !limits.secretTypes.has(type))
          throw new KryptonError('forbidden', messages.typeNotAllowed);
      },
      auditMeta: name => ({ cluster: cluster.name, namespace, name }),
      changeOf: secret => ({
        secret: {
          cluster: cluster.name,
          namespace,
          name: secret.metadata.name ?? '',
          labels: secret.metadata.labels ?? {},
        },
        uid: secret.metadata.uid ?? '',
        actor,
      }),
    };
  }

  /**
   * The scope of an operator's storage rewrite. Krypton's identity rewrites, so the scope is what
   * the caller could see: the namespaces their own identity may list Secrets in, or in
   * serviceAccount mode (where that identity is Krypton's) the namespaces listed for the mode.
   */
  function rewriteScope(ctx: ClusterRequestContext, rewrite: StorageRewrite) {
    const include =
      config.identity === 'serviceAccount'
        ? (ns: string) => config.serviceAccountMode.namespaces.has(ns)
        : undefined;
    const admit = async (namespace: string): Promise<void> => {
      const visible = include
        ? include(namespace)
        : await rewrite.mayList(ctx.gateways.user, namespace).catch(err => {
            throw fromKubeError(err);
          });
      if (!visible) throw new KryptonError('forbidden', messages.rewriteScope);
    };
    return { include, admit };
  }

  return { context, identify, rewriteScope };
}
