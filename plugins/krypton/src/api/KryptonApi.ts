import { createApiRef } from '@backstage/core-plugin-api';
import {
  AdoptSecretRequest,
  ChangeRequest,
  ChangeRequestDiff,
  ChangeRequestList,
  ConsumerVersionsResult,
  ConsumersResult,
  CreateSecretRequest,
  DeleteResult,
  DeletedSecretList,
  KryptonConfigDto,
  LastRestart,
  ManagedNamespacesDto,
  OwnedEditReason,
  OwnerSyncOffer,
  OwnerSyncResult,
  RecreateRequest,
  RestartResult,
  RestoreRequest,
  SecretDto,
  SecretList,
  SecretSummary,
  SecretWriteAnswer,
  StorageMigrationStatus,
  StorageRewriteRun,
  StorageRewriteRunStatus,
  UpdateSecretRequest,
  VersionDto,
  VersionList,
} from '@krypton/core';

/**
 * DELETE .../secrets/:name: the expected revision and whether the history is kept travel in the
 * query; the reason for deleting a Secret that another tool owns, free text, in the body.
 *
 * @public
 */
export interface DeleteSecretRequest
  extends OwnedEditReason,
    ChangeReasonField {
  resourceVersion: string;
  keepHistory?: boolean;
}

/**
 * Why the user asks for a change, which the approvers read where the Secret's changes need
 * approval (at most 1,000 characters); the backend ignores it where they do not.
 *
 * @public
 */
export interface ChangeReasonField {
  changeReason?: string;
}

/**
 * A decision on a change request: an approval (comment optional), a rejection (comment
 * required), a withdrawal by its requester (comment optional), or a soft policy's bypass (reason
 * required).
 *
 * @public
 */
export type ChangeRequestDecision =
  | { action: 'approve'; comment?: string }
  | { action: 'reject'; comment: string }
  | { action: 'withdraw'; comment?: string }
  | { action: 'bypass'; reason: string };

/** @public */
export interface KryptonHealth {
  status: 'ok';
}

/**
 * Which Secret a call is about. `cluster` is optional: without it, the backend's default (first)
 * cluster answers.
 *
 * @public
 */
export interface SecretLocation {
  cluster?: string;
  namespace: string;
  name: string;
}

/**
 * A namespace of a cluster, for the list and create routes.
 *
 * @public
 */
export type NamespaceLocation = Omit<SecretLocation, 'name'>;

/**
 * Krypton's backend API, as the frontend sees it. Every failure raises a ResponseError whose
 * message is the backend's fixed `{ error }` text, except the attempts of restartConsumers, which
 * resolve to their typed result for 200, 207 and 503.
 *
 * @public
 */
export interface KryptonApi {
  getHealth(): Promise<KryptonHealth>;
  /** The deployment's settings; resolves with `error` set when the history limit is invalid. */
  getConfig(): Promise<KryptonConfigDto>;
  /**
   * The names of the namespaces that the user may pick on a cluster (the default one when absent),
   * sorted: those the user's Kubernetes identity may list, or in serviceAccount mode the
   * operator's allow-list. Raises a 403 ResponseError when listing is refused.
   */
  listNamespaces(cluster?: string): Promise<string[]>;
  /**
   * The namespaces of the picker that hold managed Secrets the user may list, with how many, for
   * the platform page's first view. Raises the same 403 ResponseError as listNamespaces.
   */
  listManagedNamespaces(cluster?: string): Promise<ManagedNamespacesDto>;
  /**
   * The served Secrets of a namespace, metadata only; narrowed by a label selector, or the
   * unmanaged ones that may be adopted.
   */
  listSecrets(
    location: NamespaceLocation,
    options?: { labelSelector?: string; adoptable?: boolean },
  ): Promise<SecretList>;
  /** One Secret's metadata, for readers: no values, so no reveal permission needed. */
  getSecretSummary(location: SecretLocation): Promise<SecretSummary>;
  /**
   * The Secret with its values: a value read, audited. With `keys`, `data` and `binaryData` hold
   * only those keys (the audit names them): the portal fetches a value when a person asks for it.
   */
  getSecret(
    location: SecretLocation,
    options?: { keys?: readonly string[] },
  ): Promise<SecretDto>;
  /**
   * Answers the created Secret with its values only when the caller may reveal them, otherwise
   * its metadata with `valuesOmitted` (see `hasValues`).
   */
  createSecret(
    location: NamespaceLocation,
    request: CreateSecretRequest,
  ): Promise<SecretWriteAnswer>;
  /** Answers the updated Secret, with its values only when the caller may reveal them. */
  updateSecret(
    location: SecretLocation,
    request: UpdateSecretRequest & ChangeReasonField,
  ): Promise<SecretWriteAnswer>;
  adoptSecret(
    location: SecretLocation,
    request: AdoptSecretRequest,
  ): Promise<SecretSummary>;
  /**
   * Deletes the Secret at the revision the user reviewed. `ownedEditReason` is the user's reason
   * for deleting a Secret that another tool owns, where the installation asks for one.
   */
  deleteSecret(
    location: SecretLocation,
    request: DeleteSecretRequest,
  ): Promise<DeleteResult>;
  listVersions(location: SecretLocation): Promise<VersionList>;
  getVersion(location: SecretLocation, version: number): Promise<VersionDto>;
  /** Answers the restored Secret, with its values only when the caller may reveal them. */
  restoreVersion(
    location: SecretLocation,
    request: RestoreRequest & ChangeReasonField,
  ): Promise<SecretWriteAnswer>;
  /**
   * The namespace's Secrets that are gone while Krypton keeps their history, newest version
   * first, metadata only. Raises a 403 ResponseError when the user may not list the namespace's
   * Secrets, which must not read as "none were deleted".
   */
  listDeletedSecrets(location: NamespaceLocation): Promise<DeletedSecretList>;
  /**
   * Creates a new Secret of the deleted one's name from one kept version (`uid` names the deleted
   * lifetime); it starts a new history at version 1. Answers the created Secret, with its values
   * only when the caller may reveal them. Rejects with a conflict (409) when the name is taken.
   */
  recreateSecret(
    location: SecretLocation,
    request: RecreateRequest,
  ): Promise<SecretWriteAnswer>;
  listConsumers(location: SecretLocation): Promise<ConsumersResult>;
  /**
   * The consumers dry run with each workload's pods and the version of the Secret each holds
   * (GET .../consumers/pods). Read-only: it never restarts anything. A workload whose pods could
   * not be read carries its `podsFailure`; a refusal of the whole route raises a ResponseError.
   */
  consumerVersions(location: SecretLocation): Promise<ConsumerVersionsResult>;
  restartConsumers(location: SecretLocation): Promise<RestartResult>;
  getLastRestart(location: SecretLocation): Promise<LastRestart | null>;
  /**
   * Whether Krypton can ask the Secret's owner to sync it from its source for this user (External
   * Secrets' force-sync, proven by a dry run as the user); a refusal is an answer, not an error.
   */
  getOwnerSync(location: SecretLocation): Promise<OwnerSyncOffer>;
  /**
   * Annotates the controlling ExternalSecret `force-sync`, as the user. Rejects with the offer's
   * refusals (403, 404, 409, 422) as ResponseErrors.
   */
  requestOwnerSync(location: SecretLocation): Promise<OwnerSyncResult>;
  /** The Secret's change requests, newest first; never a value. */
  listChangeRequests(location: SecretLocation): Promise<ChangeRequestList>;
  getChangeRequest(
    location: SecretLocation,
    id: string,
  ): Promise<ChangeRequest>;
  /**
   * A pending request compared with the live Secret, key by key. Without `keys` it carries no
   * value; with them, the texts of those keys on both sides: a value read, audited.
   */
  getChangeRequestDiff(
    location: SecretLocation,
    id: string,
    options?: { keys?: readonly string[] },
  ): Promise<ChangeRequestDiff>;
  /** The pending requests of the cluster that wait for the signed-in user's decision. */
  waitingChangeRequests(scope: {
    cluster?: string;
  }): Promise<ChangeRequestList>;
  /**
   * Approves, rejects, withdraws or bypasses a change request, and answers it as it stands after
   * the decision (`applied` when this approval completed the quorum and the change was written).
   */
  decideChangeRequest(
    location: SecretLocation,
    id: string,
    decision: ChangeRequestDecision,
  ): Promise<ChangeRequest>;
  /**
   * Starts the operator's storage rewrite of Krypton's objects, in one namespace or in every
   * namespace the caller may list (`dryRun` counts and writes nothing). Resolves with the run
   * (202): it goes on in the backend without this request, and
   * `storageRewriteRun` reads its progress. Rejects with a conflict (409) while a run of an
   * overlapping scope is running.
   */
  startStorageRewrite(scope: {
    cluster?: string;
    namespace?: string;
    dryRun?: boolean;
  }): Promise<StorageRewriteRunStatus>;
  /** The latest runs the caller may see, newest first; with `namespace`, that namespace's. */
  storageRewriteRuns(scope: {
    cluster?: string;
    namespace?: string;
  }): Promise<StorageRewriteRunStatus[]>;
  /** One run, read from the plugin's database by any backend replica. */
  storageRewriteRun(scope: {
    cluster?: string;
    id: string;
  }): Promise<StorageRewriteRunStatus>;
  /** Asks a running run to stop before its next page; rejects with a conflict once it ended. */
  cancelStorageRewrite(scope: {
    cluster?: string;
    id: string;
  }): Promise<StorageRewriteRunStatus>;
  /** The last storage rewrite of each namespace of the cluster. */
  listStorageRewrites(scope: {
    cluster?: string;
  }): Promise<StorageRewriteRun[]>;
  /**
   * The cluster's own StorageVersionMigrations of Secrets, where it serves the API; with `since`,
   * whether one created at or after that time has succeeded.
   */
  getStorageMigrations(scope: {
    cluster?: string;
    since?: string;
  }): Promise<StorageMigrationStatus>;
}

/** @public */
export const kryptonApiRef = createApiRef<KryptonApi>({
  id: 'plugin.krypton.api',
});
