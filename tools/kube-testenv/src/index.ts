export { startControlPlane, binDir } from './controlPlane';
export type {
  ControlPlane,
  ControlPlaneState,
  StartOptions,
  TestIdentity,
} from './controlPlane';
export {
  STATE_ENV,
  EXTERNAL_KUBECONFIG_ENV,
  TEST_USERS,
  externalClusterState,
  testClusterState,
  kubeConfigFor,
  loopbackServingCertificate,
} from './testCluster';
export { useTestNamespace } from './testNamespace';
export type { IdentityKey } from './testCluster';
export { aescbcEncryptionConfig } from './encryptionConfig';
export { startFaultProxy } from './faultProxy';
export type {
  FaultAction,
  FaultRule,
  FaultProxy,
  RecordedRequest,
} from './faultProxy';
export { startPostgres, postgresBinDir, POSTGRES_BIN_ENV } from './postgres';
export type { Postgres } from './postgres';
export { eventually } from './eventually';
export { ClusterAdmin } from './clusterAdmin';
export type {
  AdminRequest,
  AdminResponse,
  CoreObject,
  StoredSecret,
  Subject,
} from './clusterAdmin';
export {
  container,
  createWorkload,
  readWorkload,
  workloadPath,
} from './workloads';
export type { StoredWorkload, WorkloadKind } from './workloads';
export {
  createPod,
  createReplicaSet,
  runningContainer,
  runningPod,
  setPodStatus,
  setWorkloadStatus,
  startedAt,
} from './pods';
export type { StoredObject } from './pods';
export {
  OWNER_KINDS,
  createOwner,
  installOwnerKinds,
  ownerPath,
} from './ownerKinds';
export type { OwnerKind } from './ownerKinds';
