import { LoggerService, UserInfoService } from '@backstage/backend-plugin-api';
import {
  AccessPolicy,
  ChangeParty,
  KryptonError,
  Principal,
  NativeSecret,
  createEngines,
  isKryptonStorageName,
  messages,
  validateNamespace,
  validateSecretName,
} from '@krypton/core';
import { KryptonBackendConfig } from '../config';
import { Cluster } from '../kubernetes/clusters';
import { PolicyGate } from '../permissions/policyGate';
import { secretResource } from '../permissions/resource';
import { createCallerIdentifier, gatewaysFor } from './identifyCaller';
import {
  CallerInput,
  ClusterRequestContext,
  SecretRequestContext,
  SecretTarget,
} from './requestContext';
import { RequestPolicy, permissionsFor } from './requestPolicy';
import { rulesOnlyGate, secretGates } from './secretGate';
import { writeAnswerFor } from './writeAnswer';

/**
 * The rule for a Secret's name on every named operation: malformed names are 400, and the names
 * of history snapshots and change proposals are 404 for everyone, admins included, whatever KRYPTON_MANAGED_ONLY says.
 */
export function admitSecretName(name: string): string {
  validateSecretName(name);
  if (isKryptonStorageName(name))
    throw new KryptonError('not_found', messages.notFound);
  return name;
}

/**
 * What the writes of an approved change request record: the requester as the actor
 * (snapshot-by) and the approvers (approved-by), while the approver's identity and gates write.
 */
export interface ChangeRecord {
  actor: string;
  approvedBy: readonly string[];
}

interface ContextDeps {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  userInfo: UserInfoService;
  policy: PolicyGate;
  logger: LoggerService;
}

/**
 * Resolves, for one request, who the user is, which cluster and namespace it targets, the
 * engines, and the gates that every route runs on the live object. Each part is a module of its
 * own: identifyCaller (who and where), requestPolicy (the permission questions of the request),
 * secretGate (the policy and the access rules on a Secret), writeAnswer (what a write answers).
 */
export function createContextResolver(deps: ContextDeps) {
  const { config, policy } = deps;
  const accessPolicy: AccessPolicy = {
    admins: config.admins,
    // Without Kubernetes RBAC behind Krypton, a Secret without rules must not be open to all.
    rulesRequired: config.identity === 'serviceAccount',
  };
  const identify = createCallerIdentifier(deps);

  async function context(target: SecretTarget): Promise<SecretRequestContext> {
    const namespace = validateNamespace(target.namespace);
    return (await inNamespaces(target)).inNamespace(namespace);
  }

  /**
   * The engines of an identified caller; `record` for an approved change request's write, which
   * the caller's identity makes while history names the requester and the approvers.
   */
  function enginesOf(
    caller: Pick<ClusterRequestContext, 'cluster' | 'gateways' | 'actor'>,
    record?: ChangeRecord,
  ) {
    return createEngines({
      mode: config.identity,
      gateways: caller.gateways,
      cluster: caller.cluster.name,
      settings: config,
      actor: record?.actor ?? caller.actor,
      approvedBy: record?.approvedBy,
    });
  }

  /**
   * A change request's requester's side when it is applied: engines with their identity (their
   * user and the groups their sign-in gave when they asked) and the Secret's access rules as
   * their gate. They are not signed in now, so no permission policy is asked (rulesOnlyGate).
   */
  function requesterParty(
    cluster: Cluster,
    requester: Principal,
  ): ChangeParty & { actor: string } {
    const actor = requester.userEntityRef;
    const { live, versioned } = enginesOf({
      cluster,
      gateways: gatewaysFor(deps, cluster, requester),
      actor,
    });
    return {
      live,
      versioned,
      gate: rulesOnlyGate({ live, principal: requester, accessPolicy }),
      actor,
    };
  }

  /**
   * One request's contexts in any namespace of its cluster: the caller is identified once, and
   * each permission is asked of the policy once for all of them, as it is within one namespace.
   */
  async function inNamespaces(input: CallerInput): Promise<{
    caller: ClusterRequestContext;
    inNamespace: (namespace: string) => SecretRequestContext;
  }> {
    const caller = await identify(input);
    const requestPolicy = new RequestPolicy(policy, caller.credentials);
    return {
      caller,
      inNamespace: namespace => inNamespace(caller, requestPolicy, namespace),
    };
  }

  function inNamespace(
    caller: ClusterRequestContext,
    requestPolicy: RequestPolicy,
    unchecked: string,
  ): SecretRequestContext {
    const namespace = validateNamespace(unchecked);
    const { cluster, principal, actor } = caller;
    const engines = enginesOf(caller);
    const { live } = engines;
    const resourceOf = (secret: NativeSecret) => secretResource(live, secret);
    const gates = secretGates({
      live,
      principal,
      accessPolicy,
      policy: requestPolicy,
      resourceOf,
    });
    return {
      ...caller,
      namespace,
      ...engines,
      gate: gates.gate,
      resourceOf,
      policyOn: permissions => requestPolicy.on(permissions),
      requirePolicy: gates.requirePolicy,
      askEarly: actions => requestPolicy.ask(permissionsFor(actions)),
      policyAnswers: resource => requestPolicy.answers(resource),
      mayList: gates.mayList,
      mayReveal: gates.mayReveal,
      answerFor: writePermissions =>
        writeAnswerFor(
          {
            live,
            policy: requestPolicy,
            resourceOf,
            mayReveal: gates.mayReveal,
          },
          writePermissions,
        ),
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
        audience: { rules: live.accessRules(secret), admins: config.admins },
      }),
    };
  }

  return { context, inNamespaces, identify, enginesOf, requesterParty };
}
