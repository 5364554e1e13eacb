/**
 * Krypton's Kubernetes engines: the gateway interface they are written against, collection
 * budgets, and the rules that read and write live Secrets. A subpath of its own, so that the
 * frontend bundle, which imports only the root entry, never carries them.
 *
 * @packageDocumentation
 */
export * from './kubernetes/types';
export * from './kubernetes/errors';
export * from './kubernetes/inventory';
export * from './kubernetes/namespaces';
export * from './kubernetes/identities';
export * from './kubernetes/liveSecrets';
export * from './kubernetes/secretFacts';
export * from './kubernetes/snapshots';
export * from './kubernetes/history';
export * from './kubernetes/versionedSecrets';
export * from './kubernetes/secretReferences';
export * from './kubernetes/restartConsumers';
export * from './kubernetes/storageRewrite';
export * from './kubernetes/storageMigrations';
export * from './kubernetes/pool';
export * from './kubernetes/restGateway';

// The contract types in the engines' signatures, so that this entry stands on its own.
export { KryptonError } from './errors';
// The settings that engines take, with the defaults and parsers of an unconfigured server, for
// hosts that bundle this entry without the root (the Headlamp plugin).
export { DEFAULT_ANNOTATION_PREFIX } from './limits';
export { parseHistoryLimit, parseManagedOnly } from './settings';
export type {
  ErrorEnvelope,
  HistoryCleanupCounts,
  KryptonErrorCode,
} from './errors';
// The rules of history views that both hosts draw (the Backstage plugin takes them from the root
// entry): the key diff, its sides, retention and what blocks a restore, and what marks a Secret as
// Krypton's.
export * from './keyDiff';
export * from './versionSides';
export * from './retention';
export * from './restoreBlock';
// The rules of consumer views that both hosts draw: a restart result's severity, outcomes and
// workload labels.
export * from './restartOutcome';
export { isManagedSecret } from './secretTraits';
export { MANAGED_BY_VALUE, kryptonKeys } from './annotations';
export { messages } from './errors';
export type { SecretAction, SecretPolicyAnswers } from './access';
export type { KryptonKeys } from './annotations';
export type { Parsed } from './settings';
export type {
  AccessRules,
  AdoptSecretRequest,
  ConsumerWorkload,
  ConsumersResult,
  CreateSecretRequest,
  DeleteResult,
  DiscoveryFailure,
  IdentityMode,
  RestartFailure,
  RestartFailureCode,
  RestartResult,
  RestartStatus,
  RestoreRequest,
  SecretUsage,
  SecretUsageType,
  OldKeyBlock,
  OldKeyBlockCode,
  OldKeyRetirement,
  StorageFlaggedObject,
  StorageMigration,
  StorageMigrationStatus,
  StorageNamespaceFailure,
  StorageObjectKind,
  StorageObjectRef,
  StorageRewriteCounts,
  StorageRewriteFailure,
  StorageRewriteFailureCode,
  StorageRewriteOutcome,
  StorageRewritePass,
  StorageRewriteResult,
  StorageRewriteProgress,
  StorageRewriteRun,
  StorageRewriteRunState,
  StorageRewriteRunStatus,
  SecretDto,
  SecretFields,
  SecretLastChange,
  SecretListItem,
  SecretMetadataView,
  SecretOwnerReference,
  SecretSummary,
  UpdateSecretRequest,
  VersionDto,
  VersionSummary,
  WorkloadKind,
  WorkloadRef,
} from './dto';
