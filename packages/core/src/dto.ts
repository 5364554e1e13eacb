import type { SecretApproval } from './approval/changeRequest';
import type { SecretPolicyAnswers } from './secretActions';

/**
 * Who may do what with one Secret, as Backstage entity refs (user:default/alice, group:default/team-a).
 *
 * @public
 */
export interface AccessRules {
  owners: string[];
  editors: string[];
  viewers: string[];
}

/**
 * What every view of a live Secret's metadata shows: what its metadata and type say, no values.
 * Lists and summaries add their own facts (SecretListItem, SecretSummary).
 *
 * @public
 */
export interface SecretMetadataView {
  cluster: string;
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  type: string;
  /** Whether Krypton created or adopted the Secret. */
  managed: boolean;
  /**
   * The app version counter; a Secret without one (or with the old 0) is logically version 1.
   * Null when the counter is malformed or exhausted: an operator must review it before edits.
   */
  version: number | null;
  description?: string;
  access: AccessRules;
  creationTimestamp?: string;
  /** Set while Kubernetes is deleting the Secret (for example, finalizers are pending). */
  deletionTimestamp?: string;
  /**
   * Every label, Krypton's own included. This backend always sends labels, annotations and
   * ownerReferences; they are optional for answers and fixtures from before they existed.
   */
  labels?: Record<string, string>;
  /**
   * The annotations this reader may see. Summaries and list items, which readers who may not
   * reveal the values get, carry Krypton's own (under its prefix) and a fixed list of other tools'
   * annotations that hold nothing derived from the values; the answer with the values (SecretDto)
   * carries the others too. Neither carries the copies of the applied object with its data
   * (kubectl's last-applied-configuration, kapp's original), which never leave the backend.
   */
  annotations?: Record<string, string>;
  /**
   * How many of the Secret's annotations `annotations` leaves out, so that a view can say that
   * there are more. This backend always sends it; absent in answers from before it existed.
   */
  withheldAnnotations?: number;
  /** The Secret's Kubernetes owners: kind, name, UID and the controller flag only. */
  ownerReferences?: SecretOwnerReference[];
  /** The newest write that Kubernetes recorded in managedFields, by any writer. */
  lastChange?: SecretLastChange;
  /**
   * The tool that owns the Secret and what an edit of its data in place will come to, recognised
   * from the metadata above (recognizeOwner); absent when nothing claims it.
   */
  owner?: SecretOwner;
  /**
   * The field managers other than Krypton whose server-side apply entries (operation Apply) own
   * `data` fields: a change of those keys through Krypton (field manager `krypton`) makes each
   * one's next apply fail on a field conflict, unless it forces. Absent when there are none.
   */
  dataAppliedBy?: string[];
}

/**
 * A tool that owns Secrets, as recognizeOwner names it: `controller` is any other controlling
 * owner reference.
 *
 * @public
 */
export type SecretOwnerTool =
  | 'external-secrets'
  | 'sealed-secrets'
  | 'vault-secrets-operator'
  | 'infisical'
  | 'argocd'
  | 'flux'
  | 'helm'
  | 'cert-manager'
  | 'controller';

/**
 * What an edit of an owned Secret's data in place comes to:
 *
 * - `reverted-at-once`: the owner watches the Secret and writes its own state back within seconds;
 * - `reverted-at-once-or-refresh`: External Secrets without an owner reference: at once
 *   (creationPolicy Merge) or at the ExternalSecret's next refresh (Orphan);
 * - `reverted-at-refresh`: at the owner's next periodic refresh or reconcile;
 * - `reverted-at-sync`: Argo CD: at once where the Application self-heals, else at its next sync;
 * - `replaced-at-once`: cert-manager re-issues a certificate whose key pair no longer matches;
 * - `lost-later`: kept until the owner's source changes or its controller restarts;
 * - `reverted-at-upgrade`: the release's next upgrade writes its own state;
 * - `kept`: a setting on the Secret tells its owner to leave it;
 * - `unknown`: another controller, whose behaviour Krypton does not know.
 *
 * @public
 */
export type OwnedEditOutcome =
  | 'reverted-at-once'
  | 'reverted-at-once-or-refresh'
  | 'reverted-at-refresh'
  | 'reverted-at-sync'
  | 'replaced-at-once'
  | 'lost-later'
  | 'reverted-at-upgrade'
  | 'kept'
  | 'unknown';

/**
 * Who owns a Secret, as its metadata says.
 *
 * @public
 */
export interface SecretOwner {
  /** The tool that owns the Secret. */
  tool: SecretOwnerTool;
  /** The owning object's kind: ExternalSecret, SealedSecret, Application, Kustomization... */
  kind?: string;
  /** The owning object (or release, or field manager) by name. */
  name?: string;
  /** Its namespace, where the metadata names one. */
  namespace?: string;
  /** What an edit of the Secret's data in place will come to. */
  outcome: OwnedEditOutcome;
  /** The metadata keys that say so (`ownerReferences`, a label or annotation key), never values. */
  evidence: string[];
  /** The per-object settings that changed the outcome, as `key=value`. */
  settings?: string[];
  /** What Krypton does with an update, restore, adopt or delete of the Secret (ownedEditRule). */
  edits: OwnedEditRule;
}

/**
 * What Krypton does with an update, restore, adopt or delete of an owned Secret:
 *
 * - `refused`: answers 409 and changes nothing (the default for every owner whose outcome is not
 *   `kept`);
 * - `reason-required`: the installation allows edits of this owner's Secrets
 *   (`krypton.ownedSecrets.allowEdits`), each with the user's reason (`ownedEditReason`), which
 *   the audit event and the notification carry;
 * - `allowed`: a setting on the Secret tells its owner to leave it (`outcome: kept`), so the edit
 *   lasts and goes through like any other.
 *
 * @public
 */
export type OwnedEditRule = 'refused' | 'reason-required' | 'allowed';

/**
 * Why Krypton cannot ask a Secret's owner to sync it for this user:
 *
 * - `not_supported`: no ExternalSecret controls the Secret (External Secrets is the only owner
 *   that Krypton asks, and only where the Secret's owner reference names the ExternalSecret);
 * - `identity`: the installation acts on Kubernetes as its own service account, and Krypton asks
 *   an owner only as the signed-in user;
 * - `forbidden`: Kubernetes does not let the user patch the ExternalSecret;
 * - `not_found`: the ExternalSecret no longer exists;
 * - `replaced`: the ExternalSecret of that name is another object than the one that owns the
 *   Secret;
 * - `rejected`: Kubernetes refused the patch as invalid (an admission webhook, for example).
 *
 * @public
 */
export type OwnerSyncRefusal =
  | 'not_supported'
  | 'identity'
  | 'forbidden'
  | 'not_found'
  | 'replaced'
  | 'rejected';

/**
 * The object that an owner sync annotates: the ExternalSecret that controls the Secret.
 *
 * @public
 */
export interface OwnerSyncTarget {
  tool: 'external-secrets';
  kind: 'ExternalSecret';
  name: string;
}

/**
 * GET .../owner-sync: whether Krypton can ask the Secret's owner to write it again from its source
 * for this user, proven with a dry run of the very patch as the user.
 *
 * @public
 */
export interface OwnerSyncOffer {
  /** Whether the dry run of the patch, as the user, passed. */
  available: boolean;
  /** The object that a sync annotates, when the Secret names one. */
  target?: OwnerSyncTarget;
  /** Why not, when not available. */
  refusal?: OwnerSyncRefusal;
  /** Fixed words for the refusal, when not available. */
  message?: string;
}

/**
 * POST .../owner-sync: the ExternalSecret was annotated `force-sync`, so its controller reads the
 * values from its store again and writes the Secret. The write is the controller's, after the
 * answer; Krypton does not wait for it.
 *
 * @public
 */
export interface OwnerSyncResult {
  target: OwnerSyncTarget;
  /** The annotation written on the ExternalSecret: `force-sync` with the time in Unix seconds. */
  annotation: { key: 'force-sync'; value: string };
  requestedAt: string;
  message: string;
}

/**
 * One Secret of a list. Lists read the API server's Table of Secrets with each row's metadata, so
 * no value is ever read: the key count comes from the table, and what only the data or the full
 * object tells (the key names, which values are binary, immutability) is not known here. The
 * summary route (SecretSummary) knows them.
 *
 * @public
 */
export interface SecretListItem extends SecretMetadataView {
  /** How many keys the Secret has, text and binary. */
  keyCount: number;
  /**
   * The permission policy's answers for the caller on this Secret; only in a list of Secrets to
   * adopt (`adoptable=true`), whose dialog must know whether adopting is allowed.
   */
  policy?: SecretPolicyAnswers;
}

/**
 * Metadata of one live Secret, as the summary route shows it: no values.
 *
 * @public
 */
export interface SecretSummary extends SecretMetadataView {
  immutable: boolean;
  /** Every key, text and binary. */
  keys: string[];
  /** Keys whose values are not lossless UTF-8 text. */
  binaryKeys: string[];
  /**
   * The permission policy's answers for the caller on this Secret; only in the answer of the
   * summary route. The portal's buttons follow it: the permission backend itself answers no
   * question about a named Secret, since it could only read it with Krypton's identity.
   */
  policy?: SecretPolicyAnswers;
  /**
   * The decoded size in bytes of each key's value, text and binary alike (keys such as
   * `__proto__` are ordinary keys here too); only in the answer of the summary route, and only
   * to a caller who may reveal this Secret's values (the policy, the access rules and the type
   * allow it). A length is derived from the value (a 4-digit PIN has 4 bytes), so readers who may
   * not reveal never get one; for those who may, it sizes the masked values without a value read.
   */
  keySizes?: Record<string, number>;
  /**
   * Set when changes to this Secret need approval (`krypton.approval.rules`, or its own
   * `required-approvals` annotation): an update, restore or delete then answers 202 with a change
   * request instead of writing. Only in the answer of the summary route.
   */
  approval?: SecretApproval;
}

/**
 * Whether this view of a Secret is its summary, which knows the key names and immutability, or a
 * list item, which does not.
 *
 * @public
 */
export function isSecretSummary(
  secret: SecretSummary | SecretListItem,
): secret is SecretSummary {
  return 'keys' in secret;
}

/**
 * An object that owns a Secret, as a summary shows it.
 *
 * @public
 */
export interface SecretOwnerReference {
  /** The owner's kind, such as Deployment or ServiceAccount. */
  kind: string;
  /** The owner's name, in the Secret's namespace. */
  name: string;
  /** The owner's UID: a new object of the same name is not the owner. */
  uid: string;
  /** Whether the owner is the Secret's managing controller. */
  controller: boolean;
}

/**
 * When a Secret was last changed (data or metadata), from its newest managedFields entry.
 *
 * @public
 */
export interface SecretLastChange {
  /** RFC 3339, to the second, as Kubernetes records it. */
  time: string;
  /** The field manager that wrote it: a program such as kubectl-edit, not a person. */
  manager?: string;
}

/**
 * A live Secret with its values.
 *
 * @public
 */
export interface SecretDto extends SecretSummary {
  /** Values whose bytes round-trip exactly as UTF-8 text. */
  data: Record<string, string>;
  /** Every other value, as the original base64. */
  binaryData: Record<string, string>;
}

/**
 * What update, restore and create answer to a caller who may not reveal the Secret's values
 * (the reveal permission or the access rules deny it): the metadata only.
 *
 * @public
 */
export interface RedactedSecret extends SecretSummary {
  valuesOmitted: true;
}

/**
 * The answer of update, restore and create: values only for callers who may reveal them.
 *
 * @public
 */
export type SecretWriteAnswer = SecretDto | RedactedSecret;

/**
 * Whether a write answer carries the values.
 *
 * @public
 */
export function hasValues(answer: SecretWriteAnswer): answer is SecretDto {
  return !('valuesOmitted' in answer);
}

/** @public */
export interface SecretList {
  items: SecretListItem[];
}

/**
 * The writable fields shared by create and update.
 *
 * @public
 */
export interface SecretFields {
  type?: string;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
  description?: string;
  access?: Partial<AccessRules>;
}

/**
 * POST .../secrets. The type defaults to Opaque.
 *
 * @public
 */
export interface CreateSecretRequest extends SecretFields {
  name: string;
}

/**
 * PUT .../secrets/:name. Without data and binaryData it is a metadata-only edit that keeps the raw
 * data map as it is. With data, text values are replaced by data; binary values are kept unless
 * binaryData is given, which then names the complete set of binary values.
 *
 * @public
 */
export interface UpdateSecretRequest extends SecretFields, OwnedEditReason {
  /** The metadata.resourceVersion that the client loaded. */
  resourceVersion: string;
}

/**
 * Why the user changes a Secret that another tool owns: required by a `reason-required` owner
 * (OwnedEditRule), ignored otherwise. 1 to 500 characters, no control characters.
 *
 * @public
 */
export interface OwnedEditReason {
  ownedEditReason?: string;
}

/**
 * POST .../secrets/:name/adopt
 *
 * @public
 */
export interface AdoptSecretRequest extends OwnedEditReason {
  resourceVersion: string;
  description?: string;
  access?: Partial<AccessRules>;
}

/**
 * A namespace that holds Krypton-managed Secrets which the caller may list.
 *
 * @public
 */
export interface ManagedNamespace {
  namespace: string;
  /**
   * How many managed Secrets the caller may list there; null when the namespace holds more
   * Secrets than Krypton lists at once.
   */
  secrets: number | null;
}

/**
 * GET /managed-namespaces: the platform page's first view.
 *
 * @public
 */
export interface ManagedNamespacesDto {
  /** Sorted by namespace; only namespaces where the caller may list at least one. */
  items: ManagedNamespace[];
  /**
   * The namespaces that the caller may list but Krypton did not look in, past its budget of
   * namespaces per answer (the first ones by name are looked in).
   */
  notLookedIn: number;
}

/** @public */
export type IdentityMode = 'impersonation' | 'hybrid' | 'serviceAccount';

/**
 * GET /config
 *
 * @public
 */
export interface KryptonConfigDto {
  annotationPrefix: string;
  identityMode: IdentityMode;
  clusters: string[];
  defaultCluster: string;
  /** Null when KRYPTON_HISTORY_LIMIT is invalid; see error. */
  historyLimit: number | null;
  restartEnabled: boolean;
  managedOnly: boolean;
  maxSecretBytes: number;
  previewLimit: number;
  /** Present, with HTTP 503, when the deployment's configuration is invalid. */
  error?: string;
}

/**
 * One retained version of a live Secret, as the history list shows it: no values.
 *
 * @public
 */
export interface VersionSummary {
  /** The app counter of the state this snapshot holds. */
  version: number;
  /** When the first successful snapshot of that state was taken, and by whom. */
  snapshotAt: string;
  snapshotBy: string;
  /**
   * For a state that a write outside Krypton replaced (recorded by Krypton's recorder): the
   * write's field manager, such as `kubectl-edit` or `helm`, when it named one.
   */
  snapshotVia?: string;
  /**
   * For a state that an approved change request replaced: its approvers (snapshotBy asked for
   * the change).
   */
  approvedBy?: string[];
  /**
   * True for the state the Secret held when it was deleted, kept by Krypton's recorder: the
   * deleter is snapshotBy.
   */
  finalState?: boolean;
  /** The live Secret's type when the snapshot was taken. */
  sourceType: string;
  /** The live resourceVersion the snapshot was taken from. */
  sourceResourceVersion: string;
  /** The snapshot's keys; null when they were too many to record in an annotation. */
  keys: string[] | null;
}

/**
 * GET .../secrets/:name/versions: newest first.
 *
 * @public
 */
export interface VersionList {
  items: VersionSummary[];
}

/**
 * GET .../secrets/:name/versions/:version: one snapshot with its values, split like a SecretDto.
 *
 * @public
 */
export interface VersionDto extends Omit<VersionSummary, 'keys'> {
  cluster: string;
  namespace: string;
  /** The live Secret this is a version of. */
  name: string;
  /** The description and rules copied from the live Secret; they grant nothing now. */
  description?: string;
  access: AccessRules;
  keys: string[];
  binaryKeys: string[];
  data: Record<string, string>;
  binaryData: Record<string, string>;
}

/**
 * POST .../secrets/:name/restore
 *
 * @public
 */
export interface RestoreRequest extends OwnedEditReason {
  version: number;
  /** The live metadata.resourceVersion that the client loaded. */
  resourceVersion: string;
}

/**
 * A Secret that is gone while Krypton keeps its history: its name no longer names a live object
 * with that UID. The history is bound to the old UID, so it is reached here, never through a later
 * Secret of the same name.
 *
 * @public
 */
export interface DeletedSecretSummary {
  /** The deleted Secret's name. */
  name: string;
  /** The UID of the deleted lifetime: what a recreate names, and all its snapshots bind. */
  uid: string;
  /** Its type, as the newest kept version records it. */
  type: string;
  /** Its description, as the newest kept version records it. */
  description?: string;
  /**
   * Who deleted it, when and with what tool: from the final state that Krypton's recorder kept at
   * the delete. Absent when no recorder kept one (a delete before the recorder ran, or one
   * through Krypton that kept history without it).
   */
  deletedBy?: string;
  /** When it was deleted, from the same final state. */
  deletedAt?: string;
  /** The delete's field manager, when it named one. */
  deletedVia?: string;
  /** A live Secret of that name exists now (a later lifetime), so a recreate would conflict. */
  nameTaken: boolean;
  /** The kept versions, newest first: metadata only, never values. */
  versions: VersionSummary[];
}

/**
 * GET .../namespaces/:namespace/deleted-secrets: sorted by name, then newest deletion first.
 *
 * @public
 */
export interface DeletedSecretList {
  /** The namespace's deleted Secrets that the caller may see. */
  items: DeletedSecretSummary[];
}

/**
 * POST .../namespaces/:namespace/deleted-secrets/:name/recreate: creates a new Secret of that
 * name from one kept version of the deleted lifetime `uid`.
 *
 * @public
 */
export interface RecreateRequest {
  /** The deleted lifetime's UID, as the list names it. */
  uid: string;
  /** The kept version to recreate from. */
  version: number;
}

/**
 * DELETE .../secrets/:name: 200 with status deleted, 202 with status pending.
 *
 * @public
 */
export interface DeleteResult {
  status: 'deleted' | 'pending';
  /** cleaned: the eligible snapshots found before the live delete are gone; kept: keepHistory. */
  history: 'cleaned' | 'kept';
}

/**
 * The workload kinds that restart-consumers discovers and patches (case-sensitive).
 *
 * @public
 */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet';

/**
 * The nine classified failure codes of a restart.
 *
 * @public
 */
export type RestartFailureCode =
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid_request'
  | 'rate_limited'
  | 'unavailable'
  | 'unconfirmed'
  | 'incomplete_list';

/** @public */
export interface WorkloadRef {
  kind: WorkloadKind;
  name: string;
}

/**
 * A matched workload whose patch was not acknowledged.
 *
 * @public
 */
export interface RestartFailure extends WorkloadRef {
  code: RestartFailureCode;
  /** Fixed, sanitized guidance; never an upstream payload. */
  message: string;
  /** The upstream status when there was one; 503 for an inventory found incomplete locally. */
  httpStatus?: number;
}

/**
 * An inventory of one kind that could not be read completely: its matches are unknown.
 *
 * @public
 */
export interface DiscoveryFailure {
  kind: WorkloadKind;
  code: RestartFailureCode;
  message: string;
  httpStatus?: number;
}

/** @public */
export type RestartStatus = 'requested' | 'no_targets' | 'partial' | 'failed';

/**
 * The answer of POST .../restart-consumers: 200 requested or no_targets, 207 partial, 503
 * failed. Automation should read status and the arrays, not message or note.
 *
 * @public
 */
export interface RestartResult {
  status: RestartStatus;
  /** Known matches from complete inventories: requested.length + failures.length. */
  matched: number;
  requested: WorkloadRef[];
  failures: RestartFailure[];
  discoveryFailures: DiscoveryFailure[];
  message: string;
  note: string;
  /** Equal to message on a 503 (failed) answer. */
  error?: string;
}

/**
 * GET .../restart-consumers/last: the latest result for the live Secret, if any.
 *
 * @public
 */
export interface LastRestart {
  result: RestartResult;
  /** The entity ref of who asked, and when. */
  requestedBy: string;
  requestedAt: string;
}

/**
 * How a workload's pod template uses a Secret.
 *
 * @public
 */
export type SecretUsageType =
  | 'env'
  | 'envFrom'
  | 'volume'
  | 'projected'
  | 'imagePullSecret';

/** @public */
export interface SecretUsage {
  type: SecretUsageType;
  /** The containers (normal, init and ephemeral) that read it through env or envFrom. */
  containers?: string[];
  /** The volume that mounts it. */
  volume?: string;
}

/**
 * One workload that references a Secret, as the consumers dry run shows it.
 *
 * @public
 */
export interface ConsumerWorkload extends WorkloadRef {
  usages: SecretUsage[];
  /** A paused Deployment does not roll out until it is resumed. */
  paused: boolean;
  /** An OnDelete update strategy rolls pods only when they are deleted. */
  onDelete: boolean;
  /** Stakater Reloader watches it, so it may already have rolled after the edit. */
  reloader: boolean;
  /** Labels, for matching workloads to catalog entities. */
  labels: Record<string, string>;
}

/**
 * GET .../secrets/:name/consumers: what a restart would touch, without patching.
 *
 * @public
 */
export interface ConsumersResult {
  workloads: ConsumerWorkload[];
  discoveryFailures: DiscoveryFailure[];
}

/**
 * What a container (or a pod, for its worst container) holds of a Secret, as its start and the
 * Secret's history tell. Never a guess: where the history cannot tell, the claim says so.
 *
 * - `version`: it read this version, which was live when it started;
 * - `between`: it started within seconds of a change, so it read one of `from` to `to`;
 * - `olderThan`: it started before the oldest version whose start the history knows (pruned, or
 *   a change before the history began): it holds a version older than `version`;
 * - `expected`: a volume mount without `subPath` that started before the live version: the kubelet
 *   updates its files within its sync period, by `by` (absent when the live version's start is
 *   not known);
 * - `notStarted`: it has never started, so it holds nothing yet and will read the live version;
 * - `unknown`: its start or the live version counter cannot be read;
 * - `imagePullOnly` (pods only): the pod names the Secret only in `imagePullSecrets`, which the
 *   kubelet reads when it pulls an image, so running containers hold nothing of it;
 * - `unused` (pods only): the pod's own spec does not reference the Secret (a pod of an older
 *   template).
 *
 * @public
 */
export type HeldVersion =
  | { state: 'version'; version: number }
  | { state: 'between'; from: number; to: number }
  | { state: 'olderThan'; version: number }
  | { state: 'expected'; version: number; by?: string }
  | { state: 'notStarted' }
  | { state: 'unknown' }
  | { state: 'imagePullOnly' }
  | { state: 'unused' };

/**
 * How a container reads a Secret: at its start (`env`, `envFrom`, a `subPath` mount), or through
 * a mounted `volume` or `projected` volume that follows the Secret.
 *
 * @public
 */
export type ContainerRead =
  | 'env'
  | 'envFrom'
  | 'subPath'
  | 'volume'
  | 'projected';

/** @public */
export interface ContainerVersion {
  name: string;
  /** `init` and `ephemeral` containers read at their start too. */
  role: 'container' | 'init' | 'ephemeral';
  reads: ContainerRead[];
  /** When its current (or last) instance started, as the kubelet reports it. */
  startedAt?: string;
  running: boolean;
  restarts: number;
  /** Why it is waiting, as the kubelet says (CrashLoopBackOff, ImagePullBackOff...). */
  waitingReason?: string;
  holds: HeldVersion;
}

/** @public */
export interface ConsumerPod {
  name: string;
  /** The pod's phase, as the kubelet reports it (Pending, Running...). */
  phase: string;
  ready: boolean;
  creationTimestamp?: string;
  /** Set while the pod is being deleted. */
  deleting: boolean;
  /** The pod's claim: its containers' oldest. */
  holds: HeldVersion;
  containers: ContainerVersion[];
}

/**
 * Where a group of pods stands against the live Secret: `current` holds it; `stale` holds an older
 * version; `converging` waits for the kubelet to update a volume; `uncertain` started while the
 * Secret changed, or cannot be told; `notStarted` has not read it yet; `unaffected` does not read
 * it while running.
 *
 * @public
 */
export type PodVersionStatus =
  | 'current'
  | 'stale'
  | 'converging'
  | 'uncertain'
  | 'notStarted'
  | 'unaffected';

/** @public */
export interface PodVersionGroup {
  holds: HeldVersion;
  status: PodVersionStatus;
  /** The pods' names, sorted. */
  pods: string[];
  /**
   * For stale pods: when the version they hold was replaced. With `olderThan`, the latest that
   * can be: they have been stale at least since then.
   */
  staleSince?: string;
}

/**
 * A workload's rollout, as its controller reports it. A count is null when the status does not
 * carry it (a controller that has not reported yet).
 *
 * @public
 */
export interface RolloutState {
  desired: number | null;
  updated: number | null;
  ready: number | null;
  available: number | null;
  /** The controller has seen the newest spec: status.observedGeneration ≥ metadata.generation. */
  observed: boolean;
  conditions: WorkloadCondition[];
}

/** @public */
export interface WorkloadCondition {
  type: string;
  status: string;
  reason?: string;
  /** The controller's own words, cut to 512 characters. */
  message?: string;
  lastTransitionTime?: string;
}

/**
 * Why a rollout may not reach every pod: `paused` (a paused Deployment), `on-delete` (pods roll
 * only when deleted), `progress-deadline` (the Deployment's Progressing condition gave up),
 * `replica-failure` (pods could not be created), `not-observed` (the controller has not seen the
 * newest spec), and of pods: `crash-loop`, `image-pull`, `pending`, `not-ready`.
 *
 * @public
 */
export type RolloutProblemReason =
  | 'paused'
  | 'on-delete'
  | 'progress-deadline'
  | 'replica-failure'
  | 'not-observed'
  | 'crash-loop'
  | 'image-pull'
  | 'pending'
  | 'not-ready';

/** @public */
export interface RolloutProblem {
  reason: RolloutProblemReason;
  /** The pods it concerns, for the problems of pods. */
  pods?: string[];
}

/**
 * Why a workload's pods could not be read. Its pods are then unknown, not zero.
 *
 * @public
 */
export interface PodsFailure {
  code: RestartFailureCode;
  message: string;
  httpStatus?: number;
}

/**
 * One consuming workload with its pods, grouped by the version of the Secret they hold.
 *
 * @public
 */
export interface ConsumerWorkloadVersions extends ConsumerWorkload {
  rollout: RolloutState;
  problems: RolloutProblem[];
  /** Stale groups first, oldest version first; empty when podsFailure is set. */
  groups: PodVersionGroup[];
  /** Sorted by name; empty when podsFailure is set. */
  pods: ConsumerPod[];
  podsFailure?: PodsFailure;
}

/**
 * The counts of every pod of every consuming workload whose pods were read.
 *
 * @public
 */
export interface ConsumerVersionsSummary {
  pods: number;
  current: number;
  stale: number;
  converging: number;
  uncertain: number;
  notStarted: number;
  unaffected: number;
  /**
   * The versions that stale pods may hold, oldest first (both sides of a start during a change);
   * `olderThan` groups are not among them.
   */
  staleVersions: number[];
  /** Stale pods that hold a version older than the oldest the history can tell. */
  olderThanHistory: number;
  /** Workloads whose pods could not be read. */
  unreadWorkloads: number;
  /**
   * Every pod that reads the Secret holds the live version (converging volumes past their
   * expected time count), and every workload and its pods could be read.
   */
  allCurrent: boolean;
  /** For people; automation reads the counts. */
  message: string;
}

/**
 * GET .../secrets/:name/consumers/pods: the consumers dry run with each workload's pods and the
 * version of the Secret each holds. Read-only; it never restarts anything.
 *
 * @public
 */
export interface ConsumerVersionsResult {
  /** The live version and since when it has been live; version null when its counter is unreadable. */
  live: { version: number | null; since?: string };
  /** The server's clock when the pods were read: durations are measured against it. */
  checkedAt: string;
  workloads: ConsumerWorkloadVersions[];
  discoveryFailures: DiscoveryFailure[];
  summary: ConsumerVersionsSummary;
}

/**
 * What one of Krypton's objects is to the storage rewrite: a managed live Secret, a history
 * snapshot or a change request's proposal that passes its validation, or a Krypton-labelled
 * object that does not: a
 * `quarantined` record in Krypton's current shape, or a `legacy` copy in an older one.
 *
 * @public
 */
export type StorageObjectKind =
  | 'live'
  | 'snapshot'
  | 'proposal'
  | 'quarantined'
  | 'legacy';

/**
 * One of Krypton's objects, as the storage rewrite reports it.
 *
 * @public
 */
export interface StorageObjectRef {
  namespace: string;
  name: string;
  kind: StorageObjectKind;
}

/**
 * Why an object or a namespace was not rewritten. The rewrite's own codes, with their own fixed
 * messages: `deadline` when the run's time limit ended it first, `malformed` for a listed object
 * without a name, UID or resourceVersion.
 *
 * @public
 */
export type StorageRewriteFailureCode =
  | 'unauthenticated'
  | 'forbidden'
  | 'invalid_request'
  | 'rate_limited'
  | 'unavailable'
  | 'unconfirmed'
  | 'incomplete_list'
  | 'malformed'
  | 'deadline';

/** @public */
export interface StorageRewriteFailure extends StorageObjectRef {
  code: StorageRewriteFailureCode;
  /** Fixed guidance; never upstream text. */
  message: string;
  httpStatus?: number;
}

/**
 * How one object's write ended.
 *
 * @public
 */
export type StorageRewriteOutcome =
  | 'rewritten'
  | 'alreadyCurrent'
  | 'conflictsResolved'
  | 'gone'
  | 'failed'
  /** A dry run: counted, not written. */
  | 'listed';

/**
 * A quarantined or legacy object. It is re-encoded like every other object (the write changes
 * no byte, label or annotation, so it is not accepted into history) and listed apart, because an
 * operator must still review it.
 *
 * @public
 */
export interface StorageFlaggedObject {
  namespace: string;
  name: string;
  reason: 'quarantined' | 'legacy';
  outcome: StorageRewriteOutcome;
}

/**
 * A namespace whose Secrets could not be read to the end: what was not reached is unknown.
 *
 * @public
 */
export interface StorageNamespaceFailure {
  /** Empty when the list of namespaces itself failed. */
  namespace: string;
  code: StorageRewriteFailureCode;
  message: string;
  httpStatus?: number;
}

/**
 * What one pass over the scope found and did.
 *
 * @public
 */
export interface StorageRewriteCounts {
  /** Every Krypton-labelled object listed in scope. */
  seen: number;
  /** Stored again with the current storage version and primary key (a new resourceVersion). */
  rewritten: number;
  /** Already current: the answer kept its resourceVersion, nothing was written. */
  alreadyCurrent: number;
  /** Another writer changed the object meanwhile, which re-encoded it too. */
  conflictsResolved: number;
  /** Deleted or replaced (another UID) after it was listed. */
  gone: number;
  failed: number;
  /** Of `seen`, the quarantined and the legacy objects (also counted by outcome above). */
  quarantined: number;
  legacy: number;
}

/**
 * Why the old key cannot be retired yet, with how many objects or namespaces it concerns.
 *
 * @public
 */
export type OldKeyBlockCode =
  | 'dry_run'
  | 'failed'
  | 'namespace_failed'
  | 'rewritten_on_recheck'
  | 'changed_during_recheck'
  | 'deadline'
  | 'cancelled';

/** @public */
export interface OldKeyBlock {
  code: OldKeyBlockCode;
  count: number;
  /** Fixed text. */
  message: string;
}

/**
 * Whether the old encryption key can be retired as far as Krypton's objects in the run's scope
 * go: `ready` when the last pass over every namespace found every object current (a second pass
 * wrote nothing), `blocked` otherwise, with the reasons.
 *
 * @public
 */
export interface OldKeyRetirement {
  verdict: 'ready' | 'blocked';
  reasons: OldKeyBlock[];
  /** Fixed text: Secrets that Krypton does not manage need the upstream migration or kubectl. */
  unmanagedSecrets: string;
}

/**
 * One pass over the scope. Lists hold at most STORAGE_REWRITE_MAX_LISTED entries each
 * (`truncated` says when more were counted); successes are counted, never listed.
 *
 * @public
 */
export interface StorageRewritePass {
  counts: StorageRewriteCounts;
  flagged: StorageFlaggedObject[];
  gone: StorageObjectRef[];
  failed: StorageRewriteFailure[];
  namespaceFailures: StorageNamespaceFailure[];
  truncated: boolean;
  /** Lists started again from the top after their continuation expired (410). */
  listRestarts: number;
}

/**
 * POST .../storage-rewrite: what a rewrite of Krypton's objects did. Its own fields are the first
 * pass; `recheck` is the second.
 *
 * @public
 */
export interface StorageRewriteResult extends StorageRewritePass {
  startedAt: string;
  finishedAt: string;
  /** Counted, not written. */
  dryRun: boolean;
  /** The namespaces covered, in the order they were rewritten. */
  namespaces: string[];
  /**
   * The second pass over the namespaces whose first pass wrote something: it must write nothing
   * for the verdict to be ready. Absent when no namespace needed one.
   */
  recheck?: StorageRewritePass;
  /**
   * Set when the run ended before its scope was covered: its time limit, or a cancel (both are
   * honoured between pages, never in the middle of one).
   */
  stopped?: 'deadline' | 'cancelled';
  oldKeyRetirement: OldKeyRetirement;
}

/** @public */
export type StorageRewriteRunState =
  | 'running'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'interrupted';

/**
 * Where a running storage rewrite is. The counts are those of the pass named by `pass`, over the
 * run so far: while `pass` is 'first', as the result's own counts; while 'recheck', as its
 * `recheck` counts.
 *
 * @public
 */
export interface StorageRewriteProgress {
  pass: 'first' | 'recheck';
  /** The namespace being rewritten now. */
  namespace?: string;
  namespacesDone: number;
  /** Known once the scope's namespaces are listed; 1 for a one-namespace run. */
  namespacesTotal?: number;
  /** The apiserver's remainingItemCount after the page just handled, when it gives one. */
  remaining?: number;
  seen: number;
  rewritten: number;
  alreadyCurrent: number;
  failed: number;
  gone: number;
}

/**
 * A storage rewrite run, as the plugin's database keeps it: POST .../storage-rewrite answers 202
 * with it, and GET .../storage-rewrite/runs/:id reads it from any replica.
 *
 * @public
 */
export interface StorageRewriteRunStatus {
  id: string;
  cluster: string;
  /** The namespace, or '*' for every namespace the caller may list. */
  scope: string;
  dryRun: boolean;
  state: StorageRewriteRunState;
  requestedBy: string;
  requestedAt: string;
  finishedAt?: string;
  cancelRequested: boolean;
  /** Who asked for the cancel, once someone did. */
  cancelledBy?: string;
  heartbeatAt: string;
  progress: StorageRewriteProgress;
  result?: StorageRewriteResult;
  /** Fixed text, when the run ended without a result. */
  error?: string;
}

/**
 * GET .../storage-rewrite/last: the last run that covered each namespace.
 *
 * @public
 */
export interface StorageRewriteRun {
  namespace: string;
  result: StorageRewriteResult;
  requestedBy: string;
  requestedAt: string;
  /** The run that wrote this part (GET .../storage-rewrite/runs/:id); absent for older parts. */
  runId?: string;
}

/**
 * One StorageVersionMigration of core Secrets.
 *
 * @public
 */
export interface StorageMigration {
  name: string;
  /** Running, Succeeded, Failed, or Pending when no condition is set yet. */
  phase: string;
  createdAt?: string;
}

/**
 * GET .../storage-rewrite/migrations: the cluster's own StorageVersionMigrations of Secrets.
 *
 * @public
 */
export interface StorageMigrationStatus {
  /** Whether the cluster serves storagemigration.k8s.io at all. */
  served: boolean;
  /** The API version read (v1 where served, else the newest beta or alpha). */
  version?: string;
  migrations: StorageMigration[];
  /**
   * With `?since=`: whether a migration of `secrets` created at or after that time has
   * succeeded.
   */
  succeededSince?: boolean;
  /** A manifest that creates a migration of every Secret, for `kubectl create -f -`. */
  manifest?: string;
}
