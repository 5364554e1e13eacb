import { Entity } from '@backstage/catalog-model';
import {
  CatalogApi,
  catalogApiRef,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { TestApiProvider, renderInTestApp } from '@backstage/test-utils';
import {
  ConsumerWorkload,
  ConsumersResult,
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
  const calls = { consumers: 0, last: 0, posts: 0 };
  const lasts = options.last ?? [null];
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
