import {
  AuditorService,
  LoggerService,
  PermissionsRegistryService,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { KryptonBackendConfig } from '../config';
import { ChangeRequestStore } from '../database/changeRequests';
import { RestartResultStore } from '../database/restartResults';
import { StorageRewriteRunStore } from '../database/storageRewriteRuns';
import { StorageRewriteStore } from '../database/storageRewrites';
import { Cluster } from '../kubernetes/clusters';
import { SecretNotifier } from '../notifications';
import { ChangeRequestNotifier } from '../notifications/changeRequests';
import { PolicyGate, createPolicyGate } from '../permissions/policyGate';
import { createAudited } from './audit';
import { createContextResolver } from './callers';

/** What the services are built from: the plugin's core services, config, clusters and stores. */
export interface ServiceOptions {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  restartResults: RestartResultStore;
  storageRewrites: StorageRewriteStore;
  storageRewriteRuns: StorageRewriteRunStore;
  changeRequests: ChangeRequestStore;
  logger: LoggerService;
  userInfo: UserInfoService;
  permissions: PermissionsService;
  permissionsRegistry: PermissionsRegistryService;
  auditor: AuditorService;
  /** Tells the owners of linking entities about a change, after it has happened. */
  notifier: SecretNotifier;
  /** Tells a change request's requester and approvers that it was made or moved. */
  changeNotifier: ChangeRequestNotifier;
}

/** What every service shares: the policy's gate, one caller resolver and one audit wrapper. */
export interface ServiceDeps extends ServiceOptions {
  policy: PolicyGate;
  callers: ReturnType<typeof createContextResolver>;
  audited: ReturnType<typeof createAudited>;
}

export function serviceDeps(options: ServiceOptions): ServiceDeps {
  const policy = createPolicyGate(
    options.permissions,
    options.permissionsRegistry,
  );
  return {
    ...options,
    policy,
    callers: createContextResolver({ ...options, policy }),
    audited: createAudited(options.auditor),
  };
}
