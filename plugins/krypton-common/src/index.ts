/**
 * Krypton's Backstage rules: the permissions that the backend registers and a policy decides
 * (`krypton.secret.*`, `krypton.storage.rewrite`, `krypton.actions.*`, the resource type
 * `krypton-secret` and its refs), which Secrets a catalog entity links to, and the signals
 * channel of a Secret. Everything else (the HTTP contract, the rules of every host and the
 * engines) is `@krypton/core`, whose contract types are re-exported here for Backstage code that
 * only needs to name them.
 *
 * @packageDocumentation
 */
export * from './permissions';
export * from './entityLinks';
export * from './signals';
export type {
  AccessRules,
  AdoptSecretRequest,
  ConsumersResult,
  ConsumerWorkload,
  CreateSecretRequest,
  DeleteResult,
  DiscoveryFailure,
  ErrorEnvelope,
  HistoryCleanupCounts,
  IdentityMode,
  KryptonConfigDto,
  KryptonErrorCode,
  LastRestart,
  OldKeyBlock,
  OldKeyBlockCode,
  OldKeyRetirement,
  RedactedSecret,
  RestartFailure,
  RestartFailureCode,
  RestartResult,
  RestartStatus,
  RestoreRequest,
  SecretDto,
  SecretFields,
  SecretLastChange,
  SecretList,
  SecretListItem,
  SecretMetadataView,
  SecretOwnerReference,
  SecretSummary,
  SecretUsage,
  SecretUsageType,
  SecretWriteAnswer,
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
  StorageRewriteProgress,
  StorageRewriteResult,
  StorageRewriteRun,
  StorageRewriteRunState,
  StorageRewriteRunStatus,
  UpdateSecretRequest,
  VersionDto,
  VersionList,
  VersionSummary,
  WorkloadKind,
  WorkloadRef,
} from '@krypton/core';
