import { Entity } from '@backstage/catalog-model';
import { ConsumerWorkload, RestartFailure, WorkloadRef } from '@krypton/core';
import {
  NOT_IN_CATALOG_TITLE,
  entityTitle,
  groupByEntity,
  labelsFromConsumers,
} from './groupByEntity';

function entity(
  name: string,
  annotations: Record<string, string>,
  extra: { kind?: string; namespace?: string; title?: string } = {},
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: extra.kind ?? 'Component',
    metadata: {
      name,
      namespace: extra.namespace,
      title: extra.title,
      annotations,
    },
  };
}

function workload(
  name: string,
  labels: Record<string, string>,
  kind: ConsumerWorkload['kind'] = 'Deployment',
): ConsumerWorkload {
  return {
    kind,
    name,
    labels,
    usages: [{ type: 'env', containers: ['app'] }],
    paused: false,
    onDelete: false,
    reloader: false,
  };
}

const api = workload('api', {
  'backstage.io/kubernetes-id': 'payments',
  app: 'payments',
});
const worker = workload(
  'worker',
  { app: 'payments', tier: 'worker' },
  'StatefulSet',
);
const agent = workload('agent', { app: 'agent' }, 'DaemonSet');
const lonely = workload('lonely', {});

const payments = entity('payments', {
  'backstage.io/kubernetes-id': 'payments',
});
const paymentsWorkers = entity(
  'payments-workers',
  { 'backstage.io/kubernetes-label-selector': 'app=payments,tier in (worker)' },
  { title: 'Payment workers' },
);
const allPayments = entity('all-payments', {
  'backstage.io/kubernetes-label-selector': 'app=payments',
});
const agents = entity(
  'agents',
  { 'backstage.io/kubernetes-label-selector': 'app=agent' },
  { kind: 'Resource', namespace: 'ops' },
);

const names = (groups: { title: string; workloads: WorkloadRef[] }[]) =>
  groups.map(g => [g.title, g.workloads.map(w => w.name)]);

describe('groupByEntity', () => {
  it('groups by kubernetes-id and label selector, listing shared workloads under each owner', () => {
    const groups = groupByEntity([api, worker, agent, lonely], {
      entities: [payments, paymentsWorkers, allPayments, agents],
      namespace: 'demo',
    });
    expect(names(groups)).toEqual([
      ['component:all-payments', ['api', 'worker']],
      ['component:payments', ['api']],
      ['Payment workers', ['worker']],
      ['resource:ops/agents', ['agent']],
      [NOT_IN_CATALOG_TITLE, ['lonely']],
    ]);
    expect(groups.map(g => g.entityRef)).toEqual([
      'component:default/all-payments',
      'component:default/payments',
      'component:default/payments-workers',
      'resource:ops/agents',
      undefined,
    ]);
  });

  it('puts the current entity first, whatever the case of its ref', () => {
    const groups = groupByEntity([api, worker], {
      entities: [payments, paymentsWorkers, allPayments],
      namespace: 'demo',
      currentEntityRef: 'Component:default/Payments-Workers',
    });
    expect(groups.map(g => g.title)).toEqual([
      'Payment workers',
      'component:all-payments',
      'component:payments',
    ]);
  });

  it('ignores a current entity ref that owns nothing or does not parse', () => {
    const groups = groupByEntity([api], {
      entities: [payments],
      namespace: 'demo',
      currentEntityRef: 'not a ref::',
    });
    expect(names(groups)).toEqual([['component:payments', ['api']]]);
  });

  it('lets the label selector win over the kubernetes-id, as the Kubernetes plugin does', () => {
    const both = entity('both', {
      'backstage.io/kubernetes-id': 'payments',
      'backstage.io/kubernetes-label-selector': 'app=agent',
    });
    expect(
      names(
        groupByEntity([api, agent], { entities: [both], namespace: 'demo' }),
      ),
    ).toEqual([
      ['component:both', ['agent']],
      [NOT_IN_CATALOG_TITLE, ['api']],
    ]);
  });

  it('falls back from an empty selector to the id, then to the entity name', () => {
    const blankWithId = entity('x', {
      'backstage.io/kubernetes-label-selector': ' ',
      'backstage.io/kubernetes-id': 'payments',
    });
    const blankOnly = entity('payments', {
      'backstage.io/kubernetes-label-selector': '',
    });
    expect(
      names(
        groupByEntity([api, agent], {
          entities: [blankWithId],
          namespace: 'demo',
        }),
      ),
    ).toEqual([
      ['component:x', ['api']],
      [NOT_IN_CATALOG_TITLE, ['agent']],
    ]);
    expect(
      names(groupByEntity([api], { entities: [blankOnly], namespace: 'demo' })),
    ).toEqual([['component:payments', ['api']]]);
  });

  it('matches nothing with an invalid selector or without either annotation', () => {
    const broken = entity('broken', {
      'backstage.io/kubernetes-label-selector': 'app in (payments',
    });
    const plain = entity('plain', {});
    expect(
      names(
        groupByEntity([api], { entities: [broken, plain], namespace: 'demo' }),
      ),
    ).toEqual([[NOT_IN_CATALOG_TITLE, ['api']]]);
  });

  it('respects backstage.io/kubernetes-namespace', () => {
    const elsewhere = entity('elsewhere', {
      'backstage.io/kubernetes-id': 'payments',
      'backstage.io/kubernetes-namespace': 'prod',
    });
    const here = entity('here', {
      'backstage.io/kubernetes-id': 'payments',
      'backstage.io/kubernetes-namespace': 'demo',
    });
    expect(
      names(
        groupByEntity([api], {
          entities: [elsewhere, here],
          namespace: 'demo',
        }),
      ),
    ).toEqual([['component:here', ['api']]]);
    expect(
      names(
        groupByEntity([api], {
          entities: [elsewhere, here],
          namespace: 'prod',
        }),
      ),
    ).toEqual([['component:elsewhere', ['api']]]);
  });

  it('lists one group per entity even if the catalog repeats it', () => {
    expect(
      names(
        groupByEntity([api], {
          entities: [payments, payments],
          namespace: 'demo',
        }),
      ),
    ).toEqual([['component:payments', ['api']]]);
  });

  it('puts everything under "Not in the catalog" without entities, and nothing without items', () => {
    expect(
      names(groupByEntity([api, agent], { entities: [], namespace: 'demo' })),
    ).toEqual([[NOT_IN_CATALOG_TITLE, ['api', 'agent']]]);
    expect(
      groupByEntity([], { entities: [payments], namespace: 'demo' }),
    ).toEqual([]);
  });

  it('groups restart results by the labels of the consumers list', () => {
    const failure: RestartFailure = {
      kind: 'StatefulSet',
      name: 'worker',
      code: 'forbidden',
      message: 'Access denied.',
      httpStatus: 403,
    };
    const items: Array<WorkloadRef & { failure?: RestartFailure }> = [
      { kind: 'Deployment', name: 'api' },
      failure,
      // Same name, other kind: not the listed Deployment.
      { kind: 'StatefulSet', name: 'api' },
      // Appeared after the list was loaded.
      { kind: 'Deployment', name: 'new' },
    ];
    const groups = groupByEntity(items, {
      entities: [payments, paymentsWorkers],
      namespace: 'demo',
      currentEntityRef: 'component:default/payments',
      labelsOf: labelsFromConsumers([api, worker]),
    });
    expect(groups.map(g => [g.title, g.workloads])).toEqual([
      ['component:payments', [{ kind: 'Deployment', name: 'api' }]],
      ['Payment workers', [failure]],
      [
        NOT_IN_CATALOG_TITLE,
        [
          { kind: 'StatefulSet', name: 'api' },
          { kind: 'Deployment', name: 'new' },
        ],
      ],
    ]);
  });
});

describe('entityTitle', () => {
  it('prefers the title, else the ref without the default namespace', () => {
    expect(entityTitle(paymentsWorkers)).toBe('Payment workers');
    expect(entityTitle(payments)).toBe('component:payments');
    expect(entityTitle(agents)).toBe('resource:ops/agents');
  });
});
