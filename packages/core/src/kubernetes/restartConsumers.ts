import { addMapEntry } from './jsonPatch';
import {
  ConsumerWorkload,
  ConsumersResult,
  DiscoveryFailure,
  RestartFailure,
  RestartFailureCode,
  RestartResult,
  RestartStatus,
  SecretUsage,
  WorkloadKind,
  WorkloadRef,
} from '../dto';
import { messages } from '../errors';
import { validateSecretName } from '../validation';
import {
  INVENTORY_BUDGET,
  IncompleteListError,
  InventoryBudget,
  readInventory,
} from './inventory';
import { inPool } from '../pool';
import { findSecretUsages } from './secretReferences';
import {
  DAEMON_SETS,
  DEPLOYMENTS,
  JsonPatchOperation,
  KubeApiError,
  KubeGateway,
  ResourceType,
  STATEFUL_SETS,
  Workload,
} from './types';

const KINDS: ReadonlyArray<[WorkloadKind, ResourceType<Workload>]> = [
  ['Deployment', DEPLOYMENTS],
  ['StatefulSet', STATEFUL_SETS],
  ['DaemonSet', DAEMON_SETS],
];

/**
 * At most this many patches are in flight per request, across all kinds.
 *
 * @public
 */
export const MAX_PATCHES_IN_FLIGHT = 4;

/** @public */
export const RESTART_NOTE =
  'Only acknowledged pod-template patches are reported as requested. Rollout completion, readiness, and credential uptake are not verified.';

/**
 * Fixed guidance per failure code; never upstream text.
 *
 * @public
 */
export const RESTART_MESSAGES: Record<RestartFailureCode, string> = {
  unauthenticated:
    "Kubernetes did not accept the credentials of the request. An operator must check Krypton's cluster configuration.",
  forbidden: messages.forbiddenKubernetes,
  not_found: 'The workload no longer exists.',
  conflict:
    'The workload changed or was replaced after discovery, so it was not restarted. Reload it and retry if a rollout is still wanted.',
  invalid_request: 'Kubernetes rejected the request as invalid.',
  rate_limited: messages.rateLimited,
  unavailable: messages.unavailable,
  unconfirmed:
    'No usable answer arrived, so it is not known whether the rollout was requested. Check the workload before retrying.',
  incomplete_list:
    'The workload list could not be read completely (over budget, or a continuation that was invalid, repeated or expired), so no workload of this kind was restarted.',
};

const MALFORMED_IDENTITY =
  'The listed workload has a missing or malformed name, UID or resourceVersion, so it was not patched by name.';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The code and status of a failed request. Status 0 means no usable answer: none arrived, or a
 * success status came with a body that could not be read (HttpKubeGateway). A patch answered so
 * may have been applied, so it is unconfirmed, and no upstream status failed, so none is given.
 *
 * @public
 */
export function classifyRestartFailure(
  err: unknown,
  step: 'list' | 'patch',
): { code: RestartFailureCode; httpStatus?: number } {
  if (err instanceof IncompleteListError)
    return { code: 'incomplete_list', httpStatus: err.status ?? 503 };
  if (!(err instanceof KubeApiError)) return { code: 'unavailable' };
  const httpStatus = err.status || undefined;
  switch (err.status) {
    case 0:
      return step === 'patch'
        ? { code: 'unconfirmed' }
        : { code: 'unavailable' };
    case 401:
      return { code: 'unauthenticated', httpStatus };
    case 403:
      return { code: 'forbidden', httpStatus };
    case 404:
      return { code: 'not_found', httpStatus };
    case 409:
      return { code: 'conflict', httpStatus };
    case 422:
      // A well-formed patch answers 422 on a real server when its `test` of the inspected UID or
      // resourceVersion fails: the workload changed or was replaced after discovery.
      return step === 'patch'
        ? { code: 'conflict', httpStatus }
        : { code: 'invalid_request', httpStatus };
    case 400:
      return { code: 'invalid_request', httpStatus };
    case 429:
      return { code: 'rate_limited', httpStatus };
    default:
      return { code: 'unavailable', httpStatus };
  }
}

function withMessage<
  T extends { code: RestartFailureCode; httpStatus?: number },
>(
  failure: T,
  message = RESTART_MESSAGES[failure.code],
): T & { message: string } {
  const out = { ...failure, message };
  if (out.httpStatus === undefined) delete out.httpStatus;
  return out;
}

/**
 * A workload of a complete inventory that references the Secret.
 *
 * @public
 */
export interface ConsumerMatch {
  kind: WorkloadKind;
  type: ResourceType<Workload>;
  workload: Workload;
  usages: SecretUsage[];
}

/**
 * What discovery found: the matches of every kind whose inventory was complete, and a failure for
 * each kind whose inventory was not (its matches are unknown, not zero).
 *
 * @public
 */
export interface ConsumerDiscovery {
  matches: ConsumerMatch[];
  discoveryFailures: DiscoveryFailure[];
}

type Match = ConsumerMatch;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The human summary; automation reads status and the arrays instead. */
function summarize(
  status: RestartStatus,
  requested: number,
  matched: number,
  failed: number,
  discoveryFailed: number,
): string {
  if (status === 'no_targets') {
    return 'No Deployment, StatefulSet or DaemonSet in the namespace references this Secret.';
  }
  const parts = [
    matched > 0
      ? `Rollout requested for ${requested} of ${plural(
          matched,
          'matched workload',
        )}.`
      : 'No rollout was requested.',
  ];
  if (failed > 0) parts.push(`${plural(failed, 'patch request')} failed.`);
  if (discoveryFailed > 0)
    parts.push(
      `Discovery failed for ${plural(discoveryFailed, 'workload kind')}.`,
    );
  return parts.join(' ');
}

/** The status the spec's result table gives to these counts. */
function statusOf(
  requested: number,
  failures: number,
  discoveryFailures: number,
): RestartStatus {
  const problems = failures + discoveryFailures;
  if (requested > 0) return problems > 0 ? 'partial' : 'requested';
  return problems > 0 ? 'failed' : 'no_targets';
}

/**
 * Maps a restart status to its HTTP status: 200, 200, 207, 503.
 *
 * @public
 */
export function restartHttpStatus(status: RestartStatus): number {
  if (status === 'partial') return 207;
  return status === 'failed' ? 503 : 200;
}

/** @public */
export interface RestartConsumersOptions {
  /** The identity of workload lists and patches: the user's, or Krypton's in hybrid mode. */
  gateway: KubeGateway;
  annotationPrefix: string;
  now?: () => Date;
  budget?: InventoryBudget;
}

/**
 * Finds the Deployments, StatefulSets and DaemonSets of a namespace that reference a Secret
 * exactly, and requests their rollouts with conditional JSON Patches. Discovery of all three kinds
 * settles before any patch; a kind whose inventory failed patches nothing and its matches are
 * unknown, not zero.
 *
 * @public
 */
export class RestartConsumers {
  constructor(private readonly options: RestartConsumersOptions) {}

  /** The workloads of the three kinds that reference the Secret; no gate of its own. */
  async discover(
    namespace: string,
    secretName: string,
  ): Promise<ConsumerDiscovery> {
    const perKind = await Promise.all(
      KINDS.map(async ([kind, type]) => {
        const matches: Match[] = [];
        const seen = new Set<string>();
        try {
          for await (const page of readInventory(
            request => this.options.gateway.list(type, namespace, request),
            { budget: this.options.budget ?? INVENTORY_BUDGET },
          )) {
            for (const workload of page) {
              // A workload served twice means pages that do not fit together: the inventory is
              // inconsistent, so nothing of this kind can be trusted.
              const name = workload.metadata.name;
              if (typeof name === 'string') {
                if (seen.has(name)) throw new IncompleteListError('malformed');
                seen.add(name);
              }
              const template = isObject(workload.spec)
                ? workload.spec.template
                : undefined;
              const usages = findSecretUsages(template, secretName);
              if (usages.length > 0)
                matches.push({ kind, type, workload, usages });
            }
          }
          return { kind, matches };
        } catch (err) {
          return {
            kind,
            failure: withMessage({
              kind,
              ...classifyRestartFailure(err, 'list'),
            }),
          };
        }
      }),
    );
    const discovery: ConsumerDiscovery = { matches: [], discoveryFailures: [] };
    for (const result of perKind) {
      if ('failure' in result && result.failure)
        discovery.discoveryFailures.push(result.failure);
      else discovery.matches.push(...(result.matches ?? []));
    }
    return discovery;
  }

  /** The patch that sets the restart annotation, after testing the inspected UID and revision. */
  private patchFor(workload: Workload, at: string): JsonPatchOperation[] {
    const key = `${this.options.annotationPrefix}/restarted-at`;
    const template = (workload.spec as Json).template as Json;
    const operations: JsonPatchOperation[] = [
      { op: 'test', path: '/metadata/uid', value: workload.metadata.uid },
      {
        op: 'test',
        path: '/metadata/resourceVersion',
        value: workload.metadata.resourceVersion,
      },
    ];
    const metadata = template.metadata;
    if (!isObject(metadata)) {
      operations.push({
        op: 'add',
        path: '/spec/template/metadata',
        value: { annotations: { [key]: at } },
      });
    } else {
      operations.push(
        addMapEntry(
          '/spec/template/metadata/annotations',
          metadata.annotations,
          key,
          at,
        ),
      );
    }
    return operations;
  }

  /** Requests a rollout of every workload that references the Secret. */
  async restart(namespace: string, secretName: string): Promise<RestartResult> {
    const { matches, discoveryFailures } = await this.discover(
      namespace,
      secretName,
    );
    const at = (this.options.now?.() ?? new Date()).toISOString();
    const requested: WorkloadRef[] = [];
    const failures: RestartFailure[] = [];
    const patchable: Match[] = [];
    for (const match of matches) {
      const { name, uid, resourceVersion } = match.workload.metadata;
      if (hasIdentity(name, uid, resourceVersion)) patchable.push(match);
      else {
        failures.push({
          kind: match.kind,
          name: typeof name === 'string' ? name : '',
          code: 'incomplete_list',
          message: MALFORMED_IDENTITY,
          httpStatus: 503,
        });
      }
    }
    const outcomes = await inPool(patchable, MAX_PATCHES_IN_FLIGHT, async m => {
      const ref: WorkloadRef = {
        kind: m.kind,
        name: m.workload.metadata.name!,
      };
      try {
        await this.options.gateway.patch(
          m.type,
          namespace,
          ref.name,
          this.patchFor(m.workload, at),
        );
        return { ref };
      } catch (err) {
        return {
          ref,
          failure: withMessage({
            ...ref,
            ...classifyRestartFailure(err, 'patch'),
          }),
        };
      }
    });
    for (const outcome of outcomes) {
      if (outcome.failure) failures.push(outcome.failure);
      else requested.push(outcome.ref);
    }
    const status = statusOf(
      requested.length,
      failures.length,
      discoveryFailures.length,
    );
    const message = summarize(
      status,
      requested.length,
      requested.length + failures.length,
      failures.length,
      discoveryFailures.length,
    );
    const result: RestartResult = {
      status,
      matched: requested.length + failures.length,
      requested,
      failures,
      discoveryFailures,
      message,
      note: RESTART_NOTE,
    };
    if (status === 'failed') result.error = message;
    return result;
  }

  /** The same discovery, without patching: how each workload uses the Secret. */
  async consumers(
    namespace: string,
    secretName: string,
  ): Promise<ConsumersResult> {
    const { matches, discoveryFailures } = await this.discover(
      namespace,
      secretName,
    );
    const workloads: ConsumerWorkload[] = [];
    for (const match of matches) {
      const consumer = consumerWorkload(match, secretName);
      if (consumer) workloads.push(consumer);
    }
    workloads.sort(
      (a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name),
    );
    return { workloads, discoveryFailures };
  }
}

/**
 * A match as the dry run shows it; undefined for a workload without a name.
 *
 * @public
 */
export function consumerWorkload(
  { kind, workload, usages }: ConsumerMatch,
  secretName: string,
): ConsumerWorkload | undefined {
  const name = workload.metadata.name;
  if (typeof name !== 'string') return undefined;
  const spec = (workload.spec ?? {}) as Json;
  const strategy = isObject(spec.updateStrategy) ? spec.updateStrategy : {};
  return {
    kind,
    name,
    usages,
    paused: kind === 'Deployment' && spec.paused === true,
    onDelete: kind !== 'Deployment' && strategy.type === 'OnDelete',
    reloader: watchedByReloader(workload, secretName),
    labels: { ...(workload.metadata.labels ?? {}) },
  };
}

function hasIdentity(name: unknown, uid: unknown, resourceVersion: unknown) {
  if (typeof uid !== 'string' || uid === '') return false;
  if (typeof resourceVersion !== 'string' || resourceVersion === '')
    return false;
  if (typeof name !== 'string') return false;
  try {
    validateSecretName(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stakater Reloader's annotations on a workload: `reloader.stakater.com/auto` or
 * `secret.reloader.stakater.com/auto` set to "true", or this Secret named in
 * `secret.reloader.stakater.com/reload`.
 */
function watchedByReloader(workload: Workload, secretName: string): boolean {
  const annotations = workload.metadata.annotations ?? {};
  if (
    annotations['reloader.stakater.com/auto'] === 'true' ||
    annotations['secret.reloader.stakater.com/auto'] === 'true'
  ) {
    return true;
  }
  const reload: unknown = annotations['secret.reloader.stakater.com/reload'];
  return (
    typeof reload === 'string' &&
    reload
      .split(',')
      .map(s => s.trim())
      .includes(secretName)
  );
}
