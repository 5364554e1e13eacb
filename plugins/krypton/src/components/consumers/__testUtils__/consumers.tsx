import { Entity } from '@backstage/catalog-model';
import {
  CatalogApi,
  catalogApiRef,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { TestApiProvider, renderInTestApp } from '@backstage/test-utils';
import {
  ConsumerPod,
  ConsumerVersionsResult,
  ConsumerVersionsSummary,
  ConsumerWorkload,
  ConsumerWorkloadVersions,
  ConsumersResult,
  HeldVersion,
  LastRestart,
  RestartResult,
  SecretSummary,
  messages,
} from '@krypton/core';
import { http, HttpResponse } from 'msw';
import { SetupServer } from 'msw/node';
import { useMemo } from 'react';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  summary as summaryFixture,
} from '../../../__testUtils__/krypton';
import { decideActions } from '../../access/decide';
import { useKryptonConfig } from '../../access/useKryptonConfig';
import { usePrincipal } from '../../access/usePrincipal';
import { useSecretPermissions } from '../../access/useSecretPermissions';
import { ConsumersTab } from '../ConsumersTab';
import { useKryptonT } from '../../../translation';

export const secretPath = `${baseUrl}/namespaces/demo/secrets/db`;

export const RESTART_NOTE =
  'Only acknowledged pod-template patches are reported as requested. Rollout completion, readiness, and credential uptake are not verified.';

function workload(
  overrides: Partial<ConsumerWorkload> &
    Pick<ConsumerWorkload, 'kind' | 'name'>,
): ConsumerWorkload {
  return {
    usages: [],
    paused: false,
    onDelete: false,
    reloader: false,
    labels: {},
    ...overrides,
  };
}

/** A paused Deployment of the payments entity, by its kubernetes-id label. */
export const api = workload({
  kind: 'Deployment',
  name: 'api',
  usages: [
    { type: 'env', containers: ['app', 'migrate'] },
    { type: 'volume', volume: 'db-creds' },
  ],
  paused: true,
  labels: { 'backstage.io/kubernetes-id': 'payments', app: 'payments' },
});

/** An OnDelete StatefulSet that a label selector assigns to the workers entity. */
export const worker = workload({
  kind: 'StatefulSet',
  name: 'worker',
  usages: [
    { type: 'envFrom', containers: ['worker'] },
    { type: 'projected', volume: 'bundle' },
  ],
  onDelete: true,
  labels: { app: 'payments', tier: 'worker' },
});

/** A DaemonSet that Reloader watches and no entity claims. */
export const agent = workload({
  kind: 'DaemonSet',
  name: 'agent',
  usages: [{ type: 'imagePullSecret' }],
  reloader: true,
  labels: { app: 'agent' },
});

export const consumers = (
  overrides: Partial<ConsumersResult> = {},
): ConsumersResult => ({
  workloads: [api, worker, agent],
  discoveryFailures: [],
  ...overrides,
});

/** When the pods were read in the versions fixtures: durations are measured against it. */
export const CHECKED_AT = '2026-12-01T10:00:00.000Z';

/** A running, ready pod whose one container reads the Secret through env. */
export function pod(
  name: string,
  holds: HeldVersion,
  overrides: Partial<ConsumerPod> = {},
): ConsumerPod {
  return {
    name,
    phase: 'Running',
    ready: true,
    creationTimestamp: '2026-12-01T08:00:00.000Z',
    deleting: false,
    holds,
    containers: [
      {
        name: 'app',
        role: 'container',
        reads: ['env'],
        startedAt: '2026-12-01T08:00:10.000Z',
        running: true,
        restarts: 0,
        holds,
      },
    ],
    ...overrides,
  };
}

/** A workload of the dry run with its rollout done and the given pods, grouped as the server does. */
export function workloadVersions(
  consumer: ConsumerWorkload,
  overrides: Partial<ConsumerWorkloadVersions> = {},
): ConsumerWorkloadVersions {
  const pods = overrides.pods ?? [
    pod(`${consumer.name}-1`, { state: 'version', version: 3 }),
  ];
  return {
    ...consumer,
    rollout: {
      desired: pods.length,
      updated: pods.length,
      ready: pods.length,
      available: pods.length,
      observed: true,
      conditions: [],
    },
    problems: [],
    groups: [
      {
        holds: { state: 'version', version: 3 },
        status: 'current',
        pods: pods.map(p => p.name),
      },
    ],
    pods,
    ...overrides,
  };
}

/** The counts of an answer where every pod holds the live version. */
export function versionsSummary(
  overrides: Partial<ConsumerVersionsSummary> = {},
): ConsumerVersionsSummary {
  return {
    pods: 3,
    current: 3,
    stale: 0,
    converging: 0,
    uncertain: 0,
    notStarted: 0,
    unaffected: 0,
    staleVersions: [],
    olderThanHistory: 0,
    unreadWorkloads: 0,
    allCurrent: true,
    message: 'All 3 pods that read it hold version 3, the live version.',
    ...overrides,
  };
}

/**
 * GET .../consumers/pods for the dry run's three workloads: the pods of api and worker at the live
 * version 3, and the agent's, which pulls images with the Secret only.
 */
export const versions = (
  overrides: Partial<ConsumerVersionsResult> = {},
): ConsumerVersionsResult => ({
  live: { version: 3, since: '2026-12-01T07:00:00.000Z' },
  checkedAt: CHECKED_AT,
  workloads: [
    workloadVersions(api),
    workloadVersions(worker),
    // Its pods name the Secret only in imagePullSecrets: they hold nothing of it.
    workloadVersions(agent, {
      pods: [pod('agent-1', { state: 'imagePullOnly' }, { containers: [] })],
      groups: [
        {
          holds: { state: 'imagePullOnly' },
          status: 'unaffected',
          pods: ['agent-1'],
        },
      ],
    }),
  ],
  discoveryFailures: [],
  summary: versionsSummary({ current: 2, unaffected: 1 }),
  ...overrides,
});

function entity(
  name: string,
  annotations: Record<string, string>,
  title?: string,
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, namespace: 'default', title, annotations },
  };
}

export const paymentsEntity = entity('payments', {
  'backstage.io/kubernetes-id': 'payments',
});
export const workersEntity = entity(
  'payments-workers',
  { 'backstage.io/kubernetes-label-selector': 'app=payments,tier=worker' },
  'Payment workers',
);
/** Would own the agent, but is not annotated for Kubernetes, so the catalog filter drops it. */
export const unannotatedEntity = entity('agent', {
  'example.com/app': 'agent',
});

export const catalogEntities = [
  paymentsEntity,
  workersEntity,
  unannotatedEntity,
];

export const requested: RestartResult = {
  status: 'requested',
  matched: 3,
  requested: [
    { kind: 'Deployment', name: 'api' },
    { kind: 'StatefulSet', name: 'worker' },
    { kind: 'DaemonSet', name: 'agent' },
  ],
  failures: [],
  discoveryFailures: [],
  message: 'Rollout requested for 3 of 3 matched workloads.',
  note: RESTART_NOTE,
};

export const partial: RestartResult = {
  status: 'partial',
  matched: 2,
  requested: [{ kind: 'Deployment', name: 'api' }],
  failures: [
    {
      kind: 'StatefulSet',
      name: 'worker',
      code: 'forbidden',
      message: messages.forbiddenKubernetes,
      httpStatus: 403,
    },
  ],
  discoveryFailures: [],
  message:
    'Rollout requested for 1 of 2 matched workloads. 1 patch request failed.',
  note: RESTART_NOTE,
};

export const INCOMPLETE_LIST =
  'The workload list could not be read completely (over budget, or a continuation that was invalid, repeated or expired), so no workload of this kind was restarted.';

export const failed: RestartResult = {
  status: 'failed',
  matched: 0,
  requested: [],
  failures: [],
  discoveryFailures: [
    {
      kind: 'Deployment',
      code: 'incomplete_list',
      message: INCOMPLETE_LIST,
      httpStatus: 503,
    },
    {
      kind: 'StatefulSet',
      code: 'rate_limited',
      message: messages.rateLimited,
      httpStatus: 429,
    },
  ],
  message: 'No rollout was requested. Discovery failed for 2 workload kinds.',
  note: RESTART_NOTE,
  error: 'No rollout was requested. Discovery failed for 2 workload kinds.',
};

export interface ServeOptions {
  consumers?: ConsumersResult | (() => Response);
  /** The answers to GET .../consumers/pods, in order; the last one repeats. */
  versions?: Array<ConsumerVersionsResult | (() => Response)>;
  /** The stored last restart, answered in order; the last one repeats. */
  last?: Array<LastRestart | null>;
  restartEnabled?: boolean;
  /** The answer to POST restart-consumers. */
  restart?: () => Response;
}

/** Serves /config and the Secret's consumer routes, recording what the tab asked. */
export function serveConsumers(
  server: Pick<SetupServer, 'use'>,
  options: ServeOptions,
) {
  const calls = { consumers: 0, versions: 0, last: 0, posts: 0 };
  const lasts = options.last ?? [null];
  const answers = options.versions ?? [versions()];
  server.use(
    http.get(`${baseUrl}/config`, () =>
      HttpResponse.json(
        kryptonConfig({ restartEnabled: options.restartEnabled ?? true }),
      ),
    ),
    http.get(`${secretPath}/consumers`, () => {
      calls.consumers += 1;
      const answer = options.consumers ?? consumers();
      return typeof answer === 'function'
        ? answer()
        : HttpResponse.json(answer);
    }),
    http.get(`${secretPath}/consumers/pods`, () => {
      const answer = answers[Math.min(calls.versions, answers.length - 1)];
      calls.versions += 1;
      return typeof answer === 'function'
        ? answer()
        : HttpResponse.json(answer);
    }),
    http.get(`${secretPath}/restart-consumers/last`, () => {
      const last = lasts[Math.min(calls.last, lasts.length - 1)];
      calls.last += 1;
      return HttpResponse.json({ last });
    }),
    http.post(`${secretPath}/restart-consumers`, () => {
      calls.posts += 1;
      return options.restart
        ? options.restart()
        : HttpResponse.json({ error: 'not expected' }, { status: 500 });
    }),
  );
  return calls;
}

/**
 * The tab with the decisions SecretDetail makes: the /config restart switch, the permission
 * policy and the Secret's rules, so that tests exercise the real inputs rather than a hand-made
 * decision.
 */
function WithDecisions(props: {
  /** The Secret whose rules and resource ref decide. */
  secret: SecretSummary;
  /** What the tab is given as the live Secret. */
  summary?: SecretSummary;
  entityRef?: string;
}) {
  const location = { namespace: 'demo', name: 'db' };
  const t = useKryptonT();
  const config = useKryptonConfig();
  const identity = usePrincipal();
  const permissions = useSecretPermissions(props.secret.policy, false);
  const decisions = useMemo(() => {
    if (!identity.principal || config.loading || permissions.loading) {
      return undefined;
    }
    return decideActions(
      {
        rules: props.secret.access,
        principal: identity.principal,
        identityMode: config.config?.identityMode,
        restartEnabled: config.config?.restartEnabled,
        served: true,
        permitted: permissions.permitted,
      },
      t,
    );
  }, [
    t,
    props.secret,
    identity.principal,
    config.loading,
    config.config,
    permissions.loading,
    permissions.permitted,
  ]);
  return (
    <ConsumersTab
      location={location}
      summary={props.summary}
      decisions={decisions}
      entityRef={props.entityRef}
    />
  );
}

export interface RenderOptions {
  entities?: Entity[];
  /** Replaces the in-memory catalog, e.g. with a failing one. */
  catalog?: CatalogApi;
  entityRef?: string;
  /** The live Secret; `null` renders the tab as if it could not be read. */
  summary?: SecretSummary | null;
}

/** The tab in a test app, with the catalog of the options and decisions from /config. */
export function renderConsumers(options: RenderOptions = {}) {
  const catalog =
    options.catalog ?? catalogApiMock({ entities: options.entities ?? [] });
  const secret = options.summary ?? summaryFixture();
  return renderInTestApp(
    <KryptonApis>
      <TestApiProvider apis={[[catalogApiRef, catalog]]}>
        <WithDecisions
          secret={secret}
          summary={options.summary === null ? undefined : secret}
          entityRef={options.entityRef}
        />
      </TestApiProvider>
    </KryptonApis>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}
