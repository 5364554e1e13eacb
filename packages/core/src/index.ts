/**
 * Krypton's host-neutral core: the HTTP contract, the rules that every host applies, and the
 * engines that read and write Kubernetes through a `KubeGateway`. It depends on no Backstage
 * package and imports no Node-only module, so the Backstage backend, the Backstage frontend and
 * the Headlamp plugin (in the browser) all build on it; a bundler keeps only what a host uses.
 *
 * @packageDocumentation
 */

// The contract: what the routes take and answer, and the fixed error envelope.
export * from './dto';
export * from './errors';
export * from './limits';
export * from './settings';

// The rules.
export * from './encoding';
export * from './annotations';
export * from './secretActions';
export * from './access';
export * from './entityRefs';
export * from './size';
export * from './validation';
export * from './labelSelector';
export * from './labelMatch';
export * from './keyDiff';
export * from './lineDiff';
export * from './secretTraits';
export * from './versionSides';
export * from './retention';
export * from './restoreBlock';
export * from './restartOutcome';
export * from './pool';
export {
  APPROVALS_MIN,
  APPROVALS_MAX,
  APPROVAL_EXPIRY_DEFAULT_HOURS,
  APPROVAL_EXPIRY_MAX_HOURS,
  parseApprovalRules,
  approvalPolicyFor,
  secretApprovalPolicy,
  ownApprovalPolicy,
} from './approval/policy';
export type {
  ApprovalEnforcement,
  ApprovalRule,
  ApprovalPolicy,
  ApprovalTarget,
} from './approval/policy';
export * from './approval/proposalSecret';
export * from './approval/changeRequest';
export * from './approval/changeDiff';

// The engines, and the gateway interface they are written against.
export * from './kubernetes/types';
export * from './kubernetes/errors';
export * from './kubernetes/inventory';
export * from './kubernetes/namespaces';
export * from './kubernetes/identities';
export * from './kubernetes/secretViews';
export * from './kubernetes/secretListing';
export * from './kubernetes/writePlan';
export * from './kubernetes/liveSecrets';
export * from './kubernetes/secretFacts';
export * from './kubernetes/secretOwner';
export * from './kubernetes/ownedEdits';
export * from './kubernetes/ownerSync';
export * from './kubernetes/snapshots';
export * from './kubernetes/history';
export * from './kubernetes/secretProposals';
export * from './kubernetes/changeRequests';
export * from './recorder/admissionReview';
export * from './recorder/secretRecorder';
export * from './recorder/outsideChange';
export * from './kubernetes/versionedSecrets';
export * from './kubernetes/deletedSecrets';
export * from './kubernetes/secretReferences';
export * from './kubernetes/restartConsumers';
export * from './kubernetes/versionTimeline';
export * from './kubernetes/podVersions';
export * from './kubernetes/rolloutState';
export * from './kubernetes/consumerVersions';
export * from './kubernetes/storageRewrite';
export * from './kubernetes/storageMigrations';
export * from './kubernetes/restGateway';
export * from './kubernetes/createEngines';
export * from './kubernetes/reviewedActor';
