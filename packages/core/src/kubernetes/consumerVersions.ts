import {
  ConsumerPod,
  HeldVersion,
  ConsumerVersionsResult,
  ConsumerVersionsSummary,
  ConsumerWorkloadVersions,
  PodsFailure,
} from '../dto';
import { parseVersionCounter, kryptonKeys } from '../annotations';
import { CONSUMER_PODS_CONCURRENCY } from '../limits';
import { inPool } from '../pool';
import { SecretHistory } from './history';
import {
  INVENTORY_BUDGET,
  IncompleteListError,
  InventoryBudget,
  readInventory,
} from './inventory';
import { LiveGate, LiveSecrets } from './liveSecrets';
import { groupPods, podVersion } from './podVersions';
import {
  ConsumerMatch,
  RESTART_MESSAGES,
  RestartConsumers,
  classifyRestartFailure,
  consumerWorkload,
} from './restartConsumers';
import { rolloutProblems, rolloutState } from './rolloutState';
import {
  KubeGateway,
  PODS,
  PageRequest,
  PodLike,
  REPLICA_SETS,
  ResourceType,
} from './types';
import { VersionTimeline, liveSince, versionTimeline } from './versionTimeline';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** @public */
export const PODS_MESSAGES = {
  incomplete:
    'The pods could not be read completely (over budget, or a continuation that was invalid, repeated or expired), so the versions they hold are unknown.',
  selector:
    "The workload's selector could not be read, so its pods were not looked for.",
};

const LABEL_KEY = /^[A-Za-z0-9._/-]{1,317}$/;
const LABEL_VALUE = /^[A-Za-z0-9._-]{0,63}$/;

/**
 * A workload's spec.selector as the list parameter `labelSelector`; undefined when it is empty or
 * holds anything that is not a valid term, so that no list ever runs wider than the workload.
 *
 * @public
 */
export function selectorQuery(selector: unknown): string | undefined {
  if (!isObject(selector)) return undefined;
  const terms: string[] = [];
  const labels = selector.matchLabels;
  if (labels !== undefined) {
    if (!isObject(labels)) return undefined;
    for (const [key, value] of Object.entries(labels)) {
      if (!LABEL_KEY.test(key) || typeof value !== 'string') return undefined;
      if (!LABEL_VALUE.test(value)) return undefined;
      terms.push(`${key}=${value}`);
    }
  }
  const expressions = selector.matchExpressions;
  if (expressions !== undefined) {
    if (!Array.isArray(expressions)) return undefined;
    for (const expression of expressions) {
      if (!isObject(expression)) return undefined;
      const { key, operator, values } = expression;
      if (typeof key !== 'string' || !LABEL_KEY.test(key)) return undefined;
      const items = Array.isArray(values) ? values : [];
      if (!items.every(v => typeof v === 'string' && LABEL_VALUE.test(v)))
        return undefined;
      if (operator === 'In' || operator === 'NotIn') {
        if (items.length === 0) return undefined;
        terms.push(
          `${key} ${operator === 'In' ? 'in' : 'notin'} (${items.join(',')})`,
        );
      } else if (operator === 'Exists') terms.push(key);
      else if (operator === 'DoesNotExist') terms.push(`!${key}`);
      else return undefined;
    }
  }
  return terms.length > 0 ? terms.join(',') : undefined;
}

/** The UID of an object's controlling owner. */
function controllerUid(object: PodLike): string | undefined {
  return object.metadata.ownerReferences?.find(ref => ref.controller === true)
    ?.uid;
}

/** A workload whose selector would list wider than its own pods. */
class SelectorError extends Error {
  constructor() {
    super('Unusable workload selector');
    this.name = 'SelectorError';
  }
}

/** @public */
export interface ConsumerVersionsOptions {
  live: LiveSecrets;
  history: SecretHistory;
  /** Discovery of the consuming workloads, with the workload identity of the mode. */
  restart: RestartConsumers;
  /** The identity of pod and ReplicaSet lists: the user's, whatever the mode's workload identity. */
  pods: KubeGateway;
  annotationPrefix: string;
  now?: () => Date;
  budget?: InventoryBudget;
}

/**
 * The version of a Secret that each pod of its consumers holds: the consumers dry run, then each
 * workload's pods, read as the user within the collection budgets, each container matched to the
 * version that was live when it started (or, for a volume that follows the Secret, expected once
 * the kubelet syncs).
 *
 * @public
 */
export class ConsumerVersions {
  constructor(private readonly options: ConsumerVersionsOptions) {}

  async read(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<ConsumerVersionsResult> {
    const { live: liveSecrets, history, restart } = this.options;
    const live = await liveSecrets.loadGated(namespace, name, ['read'], gate, {
      metadataOnly: true,
    });
    const counter = parseVersionCounter(
      live.metadata.annotations?.[
        kryptonKeys(this.options.annotationPrefix).version
      ],
    );
    const [records, discovery] = await Promise.all([
      history.inventory(namespace, live),
      restart.discover(namespace, name),
    ]);
    const timeline = versionTimeline({
      live: counter.ok ? counter.version : null,
      creationTimestamp: live.metadata.creationTimestamp,
      records,
    });
    const checkedAt = (this.options.now?.() ?? new Date()).toISOString();
    const matches = discovery.matches
      .filter(match => typeof match.workload.metadata.name === 'string')
      .sort(
        (a, b) =>
          a.kind.localeCompare(b.kind) ||
          a.workload.metadata.name!.localeCompare(b.workload.metadata.name!),
      );
    const workloads = await inPool(matches, CONSUMER_PODS_CONCURRENCY, match =>
      this.workload(namespace, name, match, timeline),
    );
    const since = liveSince(timeline);
    const result: ConsumerVersionsResult = {
      live: { version: timeline.live },
      checkedAt,
      workloads,
      discoveryFailures: discovery.discoveryFailures,
      summary: summarize(
        workloads,
        timeline.live,
        checkedAt,
        discovery.discoveryFailures.length,
      ),
    };
    if (since !== undefined) result.live.since = new Date(since).toISOString();
    return result;
  }

  private async workload(
    namespace: string,
    secretName: string,
    match: ConsumerMatch,
    timeline: VersionTimeline,
  ): Promise<ConsumerWorkloadVersions> {
    const consumer = consumerWorkload(match, secretName)!;
    const rollout = rolloutState(match.kind, match.workload);
    let pods: ConsumerPod[];
    try {
      pods = await this.podsOf(namespace, secretName, match, timeline);
    } catch (err) {
      return {
        ...consumer,
        rollout,
        problems: rolloutProblems(match.kind, match.workload, rollout, []),
        groups: [],
        pods: [],
        podsFailure: podsFailure(err),
      };
    }
    pods.sort((a, b) => a.name.localeCompare(b.name));
    return {
      ...consumer,
      rollout,
      problems: rolloutProblems(match.kind, match.workload, rollout, pods),
      groups: groupPods(pods, timeline),
      pods,
    };
  }

  /**
   * The workload's pods: those its selector selects that it controls, through its ReplicaSets for
   * a Deployment. Each page is reduced to the pods' claims as it arrives.
   */
  private async podsOf(
    namespace: string,
    secretName: string,
    match: ConsumerMatch,
    timeline: VersionTimeline,
  ): Promise<ConsumerPod[]> {
    const spec = isObject(match.workload.spec) ? match.workload.spec : {};
    const labelSelector = selectorQuery(spec.selector);
    if (labelSelector === undefined) throw new SelectorError();
    const uid = match.workload.metadata.uid;
    const owners = new Set<string>();
    if (match.kind === 'Deployment') {
      for await (const page of this.inventory(
        REPLICA_SETS,
        namespace,
        labelSelector,
      )) {
        for (const replicaSet of page) {
          if (controllerUid(replicaSet) === uid && replicaSet.metadata.uid)
            owners.add(replicaSet.metadata.uid);
        }
      }
    } else if (uid) owners.add(uid);
    const pods: ConsumerPod[] = [];
    if (owners.size === 0) return pods;
    for await (const page of this.inventory(PODS, namespace, labelSelector)) {
      for (const pod of page) {
        const owner = controllerUid(pod);
        if (owner !== undefined && owners.has(owner))
          pods.push(podVersion(pod, secretName, timeline));
      }
    }
    return pods;
  }

  private inventory(
    type: ResourceType<PodLike>,
    namespace: string,
    labelSelector: string,
  ) {
    return readInventory(
      (request: PageRequest) =>
        this.options.pods.list(type, namespace, request),
      { labelSelector, budget: this.options.budget ?? INVENTORY_BUDGET },
    );
  }
}

function podsFailure(err: unknown): PodsFailure {
  if (err instanceof SelectorError)
    return { code: 'invalid_request', message: PODS_MESSAGES.selector };
  const { code, httpStatus } = classifyRestartFailure(err, 'list');
  const failure: PodsFailure = {
    code,
    message:
      err instanceof IncompleteListError
        ? PODS_MESSAGES.incomplete
        : RESTART_MESSAGES[code],
  };
  if (httpStatus !== undefined) failure.httpStatus = httpStatus;
  return failure;
}

const plural = (n: number, word: string, many = `${word}s`) =>
  `${n} ${n === 1 ? word : many}`;

/**
 * The counts over every workload whose pods were read, and the line people read.
 *
 * @public
 */
export function summarize(
  workloads: readonly ConsumerWorkloadVersions[],
  live: number | null,
  checkedAt: string,
  discoveryFailures: number,
): ConsumerVersionsSummary {
  const summary: ConsumerVersionsSummary = {
    pods: 0,
    current: 0,
    stale: 0,
    converging: 0,
    uncertain: 0,
    notStarted: 0,
    unaffected: 0,
    staleVersions: [],
    olderThanHistory: 0,
    unreadWorkloads: 0,
    allCurrent: false,
    message: '',
  };
  const staleVersions = new Set<number>();
  const staleClaims = new Set<string>();
  let convergingLate = 0;
  const now = Date.parse(checkedAt);
  for (const workload of workloads) {
    if (workload.podsFailure) summary.unreadWorkloads++;
    for (const group of workload.groups) {
      const n = group.pods.length;
      summary.pods += n;
      summary[group.status] += n;
      const { holds } = group;
      if (group.status === 'stale') {
        staleClaims.add(claimWords(holds));
        if (holds.state === 'olderThan') summary.olderThanHistory += n;
        else if (holds.state === 'version') staleVersions.add(holds.version);
        else if (holds.state === 'between')
          for (let v = holds.from; v <= holds.to; v++) staleVersions.add(v);
      }
      if (
        holds.state === 'expected' &&
        (holds.by === undefined || Date.parse(holds.by) > now)
      )
        convergingLate += n;
    }
  }
  summary.staleVersions = [...staleVersions].sort((a, b) => a - b);
  summary.allCurrent =
    live !== null &&
    discoveryFailures === 0 &&
    summary.unreadWorkloads === 0 &&
    summary.stale === 0 &&
    summary.uncertain === 0 &&
    summary.notStarted === 0 &&
    convergingLate === 0;
  summary.message = summaryMessage(
    summary,
    live,
    discoveryFailures,
    workloads.length,
    staleClaims.size === 1 ? [...staleClaims][0] : 'older versions',
  );
  return summary;
}

/** What a stale claim holds, in the summary's words. */
function claimWords(holds: HeldVersion): string {
  switch (holds.state) {
    case 'version':
      return `version ${holds.version}`;
    case 'olderThan':
      return `a version older than version ${holds.version}`;
    case 'between':
      return holds.to - holds.from === 1
        ? `version ${holds.from} or ${holds.to}`
        : `a version from ${holds.from} to ${holds.to}`;
    default:
      return 'an older version';
  }
}

function summaryMessage(
  s: ConsumerVersionsSummary,
  live: number | null,
  discoveryFailures: number,
  workloads: number,
  stale: string,
): string {
  const parts: string[] = [];
  const readers = s.pods - s.unaffected;
  if (live === null) {
    parts.push(
      'The live version counter cannot be read, so no pod can be matched to a version.',
    );
  } else if (workloads === 0 && discoveryFailures === 0) {
    parts.push('No workload in the namespace references this Secret.');
  } else if (s.stale > 0) {
    parts.push(
      `${s.stale} of ${plural(readers, 'pod')} still ${
        s.stale === 1 ? 'holds' : 'hold'
      } ${stale}; the live Secret is version ${live}.`,
    );
  } else if (s.allCurrent) {
    parts.push(
      readers === 0
        ? `No running pod reads it; the live Secret is version ${live}.`
        : `${readers === 1 ? 'The pod' : `All ${readers} pods`} that ${
            readers === 1 ? 'reads' : 'read'
          } it ${
            readers === 1 ? 'holds' : 'hold'
          } version ${live}, the live version.`,
    );
  } else {
    parts.push(
      `${s.current} of ${plural(readers, 'pod')} ${
        s.current === 1 ? 'holds' : 'hold'
      } version ${live}, the live version.`,
    );
  }
  if (s.converging > 0)
    parts.push(
      `${plural(s.converging, 'pod')} ${
        s.converging === 1 ? 'waits' : 'wait'
      } for the kubelet to update a mounted volume.`,
    );
  if (s.uncertain > 0)
    parts.push(
      `For ${plural(s.uncertain, 'pod')}, the version cannot be told.`,
    );
  if (s.notStarted > 0)
    parts.push(
      `${plural(s.notStarted, 'pod')} ${
        s.notStarted === 1 ? 'has' : 'have'
      } not started yet.`,
    );
  if (s.unreadWorkloads > 0)
    parts.push(
      `The pods of ${plural(s.unreadWorkloads, 'workload')} could not be read.`,
    );
  if (discoveryFailures > 0)
    parts.push(
      `Discovery failed for ${plural(discoveryFailures, 'workload kind')}.`,
    );
  return parts.join(' ');
}
