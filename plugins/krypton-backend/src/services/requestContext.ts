import {
  BackstageCredentials,
  BackstageUserPrincipal,
} from '@backstage/backend-plugin-api';
import { ResourcePermission } from '@backstage/plugin-permission-common';
import { KRYPTON_SECRET_RESOURCE_TYPE } from '@krypton/plugin-krypton-common';
import {
  DeletedSecrets,
  LiveGate,
  LiveSecrets,
  NativeSecret,
  OwnerSync,
  Principal,
  RequestGateways,
  ConsumerVersions,
  RestartConsumers,
  SecretAction,
  SecretPolicyAnswers,
  SecretWriteAnswer,
  VersionedSecrets,
} from '@krypton/core';
import { Request } from 'express';
import { Cluster } from '../kubernetes/clusters';
import { SecretChange } from '../notifications';
import { ResourceDecision } from '../permissions/policyGate';
import { KryptonSecretResource } from '../permissions/resource';

// What a service knows about one request once it is resolved: who asks, where, with which
// engines and gates. The resolver (callers.ts) builds it; services only read it.

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
  /** The version each consuming pod holds; pods are read as the user. */
  consumerVersions: ConsumerVersions;
  /** Secrets that are gone while their history is kept, and their recreation. */
  deleted: DeletedSecrets;
  /** Requests to a Secret's owner to write it again from its source, as the user only. */
  ownerSync: OwnerSync;
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
  /**
   * Which Secret a notification or signal is about, who changed it and whom it admits by name,
   * from the object the write saw.
   */
  changeOf(
    secret: NativeSecret,
  ): Pick<SecretChange, 'secret' | 'uid' | 'actor' | 'audience'>;
}
