import { ChangeRequestService } from './changeRequestService';
import { DeletedSecretsService } from './deletedSecretsService';
import { HistoryService } from './historyService';
import { NamespacesService } from './namespacesService';
import { OwnerSyncService } from './ownerSyncService';
import { RestartService } from './restartService';
import { SecretsService } from './secretsService';
import { ServiceOptions, serviceDeps } from './deps';
import { StorageService } from './storageService';

export type { CallerInput, SecretTarget } from './requestContext';
export { admitSecretName } from './callers';
export type { ServiceOptions } from './deps';

/**
 * Krypton's operations, one service per capability. Each identifies the caller, applies the
 * gates, calls the core's engines and records the audit event, so that HTTP routes (and anything
 * else that acts for a user) only translate.
 */
export interface KryptonServices {
  secrets: SecretsService;
  history: HistoryService;
  deleted: DeletedSecretsService;
  restart: RestartService;
  ownerSync: OwnerSyncService;
  storage: StorageService;
  namespaces: NamespacesService;
  changeRequests: ChangeRequestService;
}

export function createKryptonServices(
  options: ServiceOptions,
): KryptonServices {
  const deps = serviceDeps(options);
  const changeRequests = new ChangeRequestService(deps);
  const secrets = new SecretsService(deps, changeRequests);
  return {
    secrets,
    history: new HistoryService(deps, changeRequests),
    changeRequests,
    deleted: new DeletedSecretsService(deps),
    restart: new RestartService(deps),
    ownerSync: new OwnerSyncService(deps),
    storage: new StorageService(deps),
    namespaces: new NamespacesService(deps, secrets),
  };
}
