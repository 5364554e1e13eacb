import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import {
  AdoptSecretRequest,
  ChangeRequest,
  ChangeRequestAnswer,
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
import {
  ChangeReasonField,
  ChangeRequestDecision,
  DeleteSecretRequest,
  KryptonApi,
  KryptonHealth,
  NamespaceLocation,
  SecretLocation,
} from './KryptonApi';
import { responseError } from './responseError';

const seg = encodeURIComponent;

const clusterPath = (scope: { cluster?: string }) =>
  scope.cluster ? `/clusters/${seg(scope.cluster)}` : '';

/** The route prefix of a namespace: the cluster segment only when one is named. */
const namespaceRoot = (location: NamespaceLocation) =>
  `${clusterPath(location)}/namespaces/${seg(location.namespace)}`;

const namespacePath = (location: NamespaceLocation) =>
  `${namespaceRoot(location)}/secrets`;

const deletedPath = (location: NamespaceLocation) =>
  `${namespaceRoot(location)}/deleted-secrets`;

const secretPath = (location: SecretLocation) =>
  `${namespacePath(location)}/${seg(location.name)}`;

const changeRequestsPath = (location: SecretLocation) =>
  `${secretPath(location)}/change-requests`;

/** The shape of a restart answer: every status but preflight errors carries the whole result. */
function isRestartResult(body: unknown): body is RestartResult {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as RestartResult).status === 'string' &&
    Array.isArray((body as RestartResult).requested)
  );
}

function isChangeRequestAnswer(body: unknown): body is ChangeRequestAnswer {
  const request = (body as Partial<ChangeRequestAnswer> | null)?.changeRequest;
  return typeof request?.id === 'string' && typeof request.state === 'string';
}

/**
 * A write that the backend turned into a change request: nothing was written.
 *
 * @public
 */
export class ChangeRequestedError extends Error {
  constructor(readonly changeRequest: ChangeRequest) {
    super(
      `Changes to this Secret need approval: nothing was written, and your change now waits for ${changeRequest.policy.requiredApprovals} approval(s) as change request ${changeRequest.id}.`,
    );
    this.name = 'ChangeRequestedError';
  }
}

/**
 * KryptonApi over the backend plugin's HTTP routes, with the signed-in user's credentials.
 *
 * @public
 */
export class KryptonClient implements KryptonApi {
  constructor(
    private readonly deps: { discoveryApi: DiscoveryApi; fetchApi: FetchApi },
  ) {}

  private async send(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<Response> {
    const base = await this.deps.discoveryApi.getBaseUrl('krypton');
    return this.deps.fetchApi.fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers:
        init.body === undefined
          ? undefined
          : { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  }

  private async json<T>(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<T> {
    const res = await this.send(path, init);
    if (!res.ok) throw await responseError(res);
    return (await res.json()) as T;
  }

  /**
   * An update, restore or delete. Where changes to the Secret need approval the backend writes
   * nothing and answers 202 with the change request it made instead; the portal's dialogs then
   * say so as their error, since nothing they asked for was written.
   */
  private async written<T>(
    path: string,
    init: { method: string; body?: unknown },
  ): Promise<T> {
    const res = await this.send(path, init);
    if (!res.ok) throw await responseError(res);
    const body = (await res.json()) as T | ChangeRequestAnswer;
    if (res.status === 202 && isChangeRequestAnswer(body))
      throw new ChangeRequestedError(body.changeRequest);
    return body as T;
  }

  getHealth(): Promise<KryptonHealth> {
    return this.json('/health');
  }

  async getConfig(): Promise<KryptonConfigDto> {
    const res = await this.send('/config');
    // A misconfigured history limit answers 503 with the whole config plus its error.
    if (res.status === 503) {
      const body = (await res
        .clone()
        .json()
        .catch(() => undefined)) as KryptonConfigDto | undefined;
      if (body && typeof body.error === 'string' && body.clusters) return body;
    }
    if (!res.ok) throw await responseError(res);
    return (await res.json()) as KryptonConfigDto;
  }

  async listNamespaces(cluster?: string): Promise<string[]> {
    const body = await this.json<{ items: string[] }>(
      `${clusterPath({ cluster })}/namespaces`,
    );
    return body.items;
  }

  listManagedNamespaces(cluster?: string): Promise<ManagedNamespacesDto> {
    return this.json<ManagedNamespacesDto>(
      `${clusterPath({ cluster })}/managed-namespaces`,
    );
  }

  listSecrets(
    location: NamespaceLocation,
    options: { labelSelector?: string; adoptable?: boolean } = {},
  ): Promise<SecretList> {
    const query = new URLSearchParams();
    if (options.labelSelector)
      query.set('labelSelector', options.labelSelector);
    if (options.adoptable) query.set('adoptable', 'true');
    const suffix = query.toString() ? `?${query}` : '';
    return this.json(`${namespacePath(location)}${suffix}`);
  }

  getSecretSummary(location: SecretLocation): Promise<SecretSummary> {
    return this.json(`${secretPath(location)}/summary`);
  }

  getSecret(
    location: SecretLocation,
    options: { keys?: readonly string[] } = {},
  ): Promise<SecretDto> {
    const suffix = options.keys
      ? `?${new URLSearchParams({ keys: options.keys.join(',') })}`
      : '';
    return this.json(`${secretPath(location)}${suffix}`);
  }

  createSecret(
    location: NamespaceLocation,
    request: CreateSecretRequest,
  ): Promise<SecretWriteAnswer> {
    return this.json(namespacePath(location), {
      method: 'POST',
      body: request,
    });
  }

  updateSecret(
    location: SecretLocation,
    request: UpdateSecretRequest & ChangeReasonField,
  ): Promise<SecretWriteAnswer> {
    return this.written(secretPath(location), { method: 'PUT', body: request });
  }

  adoptSecret(
    location: SecretLocation,
    request: AdoptSecretRequest,
  ): Promise<SecretSummary> {
    return this.json(`${secretPath(location)}/adopt`, {
      method: 'POST',
      body: request,
    });
  }

  deleteSecret(
    location: SecretLocation,
    request: DeleteSecretRequest,
  ): Promise<DeleteResult> {
    const query = new URLSearchParams({
      resourceVersion: request.resourceVersion,
    });
    if (request.keepHistory !== undefined)
      query.set('keepHistory', String(request.keepHistory));
    // The reasons are the user's free text: in the body, never in a URL that logs keep.
    const body: OwnedEditReason & ChangeReasonField = {};
    if (request.ownedEditReason !== undefined)
      body.ownedEditReason = request.ownedEditReason;
    if (request.changeReason !== undefined)
      body.changeReason = request.changeReason;
    return this.written(`${secretPath(location)}?${query}`, {
      method: 'DELETE',
      ...(Object.keys(body).length === 0 ? {} : { body }),
    });
  }

  listVersions(location: SecretLocation): Promise<VersionList> {
    return this.json(`${secretPath(location)}/versions`);
  }

  getVersion(location: SecretLocation, version: number): Promise<VersionDto> {
    return this.json(`${secretPath(location)}/versions/${version}`);
  }

  restoreVersion(
    location: SecretLocation,
    request: RestoreRequest & ChangeReasonField,
  ): Promise<SecretWriteAnswer> {
    return this.written(`${secretPath(location)}/restore`, {
      method: 'POST',
      body: request,
    });
  }

  listDeletedSecrets(location: NamespaceLocation): Promise<DeletedSecretList> {
    return this.json(deletedPath(location));
  }

  recreateSecret(
    location: SecretLocation,
    request: RecreateRequest,
  ): Promise<SecretWriteAnswer> {
    return this.json(
      `${deletedPath(location)}/${seg(location.name)}/recreate`,
      { method: 'POST', body: request },
    );
  }

  listConsumers(location: SecretLocation): Promise<ConsumersResult> {
    return this.json(`${secretPath(location)}/consumers`);
  }

  consumerVersions(location: SecretLocation): Promise<ConsumerVersionsResult> {
    return this.json(`${secretPath(location)}/consumers/pods`);
  }

  /** 200, 207 and 503 attempts resolve to their result; preflight errors raise ResponseError. */
  async restartConsumers(location: SecretLocation): Promise<RestartResult> {
    const res = await this.send(`${secretPath(location)}/restart-consumers`, {
      method: 'POST',
    });
    if (res.ok || res.status === 207 || res.status === 503) {
      const body: unknown = await res
        .clone()
        .json()
        .catch(() => undefined);
      if (isRestartResult(body)) return body;
    }
    throw await responseError(res);
  }

  async getLastRestart(location: SecretLocation): Promise<LastRestart | null> {
    const body = await this.json<{ last: LastRestart | null }>(
      `${secretPath(location)}/restart-consumers/last`,
    );
    return body.last;
  }

  getOwnerSync(location: SecretLocation): Promise<OwnerSyncOffer> {
    return this.json(`${secretPath(location)}/owner-sync`);
  }

  requestOwnerSync(location: SecretLocation): Promise<OwnerSyncResult> {
    return this.json(`${secretPath(location)}/owner-sync`, { method: 'POST' });
  }

  listChangeRequests(location: SecretLocation): Promise<ChangeRequestList> {
    return this.json(changeRequestsPath(location));
  }

  getChangeRequest(
    location: SecretLocation,
    id: string,
  ): Promise<ChangeRequest> {
    return this.json(`${changeRequestsPath(location)}/${seg(id)}`);
  }

  getChangeRequestDiff(
    location: SecretLocation,
    id: string,
    options: { keys?: readonly string[] } = {},
  ): Promise<ChangeRequestDiff> {
    const suffix = options.keys
      ? `?${new URLSearchParams({ keys: options.keys.join(',') })}`
      : '';
    return this.json(
      `${changeRequestsPath(location)}/${seg(id)}/diff${suffix}`,
    );
  }

  waitingChangeRequests(scope: {
    cluster?: string;
  }): Promise<ChangeRequestList> {
    return this.json(`${clusterPath(scope)}/change-requests`);
  }

  decideChangeRequest(
    location: SecretLocation,
    id: string,
    decision: ChangeRequestDecision,
  ): Promise<ChangeRequest> {
    const { action, ...body } = decision;
    return this.json(`${changeRequestsPath(location)}/${seg(id)}/${action}`, {
      method: 'POST',
      body,
    });
  }

  startStorageRewrite(scope: {
    cluster?: string;
    namespace?: string;
    dryRun?: boolean;
  }): Promise<StorageRewriteRunStatus> {
    const params = new URLSearchParams();
    if (scope.namespace) params.set('namespace', scope.namespace);
    if (scope.dryRun) params.set('dryRun', 'true');
    const query = params.toString() ? `?${params}` : '';
    return this.json(`${clusterPath(scope)}/storage-rewrite${query}`, {
      method: 'POST',
    });
  }

  async storageRewriteRuns(scope: {
    cluster?: string;
    namespace?: string;
  }): Promise<StorageRewriteRunStatus[]> {
    const query = scope.namespace
      ? `?${new URLSearchParams({ namespace: scope.namespace })}`
      : '';
    const body = await this.json<{ runs: StorageRewriteRunStatus[] }>(
      `${clusterPath(scope)}/storage-rewrite/runs${query}`,
    );
    return body.runs;
  }

  storageRewriteRun(scope: {
    cluster?: string;
    id: string;
  }): Promise<StorageRewriteRunStatus> {
    return this.json(
      `${clusterPath(scope)}/storage-rewrite/runs/${seg(scope.id)}`,
    );
  }

  cancelStorageRewrite(scope: {
    cluster?: string;
    id: string;
  }): Promise<StorageRewriteRunStatus> {
    return this.json(
      `${clusterPath(scope)}/storage-rewrite/runs/${seg(scope.id)}/cancel`,
      { method: 'POST' },
    );
  }

  async listStorageRewrites(scope: {
    cluster?: string;
  }): Promise<StorageRewriteRun[]> {
    const body = await this.json<{ runs: StorageRewriteRun[] }>(
      `${clusterPath(scope)}/storage-rewrite/last`,
    );
    return body.runs;
  }

  getStorageMigrations(scope: {
    cluster?: string;
    since?: string;
  }): Promise<StorageMigrationStatus> {
    const query = scope.since
      ? `?${new URLSearchParams({ since: scope.since })}`
      : '';
    return this.json(
      `${clusterPath(scope)}/storage-rewrite/migrations${query}`,
    );
  }
}
