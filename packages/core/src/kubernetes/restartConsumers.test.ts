import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import {
  ConsumerWorkload,
  DiscoveryFailure,
  RestartFailure,
  RestartFailureCode,
  RestartResult,
  WorkloadKind,
} from '../dto';
import { INVENTORY_BUDGET, IncompleteListError } from './inventory';
import {
  MAX_PATCHES_IN_FLIGHT,
  RESTART_MESSAGES,
  RESTART_NOTE,
  RestartConsumers,
  classifyRestartFailure,
  restartHttpStatus,
} from './restartConsumers';
import {
  DAEMON_SETS,
  DEPLOYMENTS,
  JsonPatchOperation,
  KubeApiError,
  KubeObject,
  ResourceType,
  STATEFUL_SETS,
  Workload,
} from './types';

const NS = 'ns';
const SECRET = 'db-creds';
const AT = new Date('2026-11-30T10:00:00.000Z');
const KEY = 'krypton.io/restarted-at';

/** The spec's texts, verbatim. */
const FORBIDDEN_TEXT =
  'Access denied. Check Kubernetes permissions for the effective identity and, when enabled, ServiceAccount impersonation permissions.';
const NOTE_TEXT =
  'Only acknowledged pod-template patches are reported as requested. Rollout completion, readiness, and credential uptake are not verified.';

const TYPES: Record<WorkloadKind, ResourceType<Workload>> = {
  Deployment: DEPLOYMENTS,
  StatefulSet: STATEFUL_SETS,
  DaemonSet: DAEMON_SETS,
};
const KINDS = Object.keys(TYPES) as WorkloadKind[];

type Json = Record<string, unknown>;

/** A pod template that reads the Secret through env, or references nothing. */
function podTemplate(secret: string | undefined, metadata?: Json): Json {
  const container: Json = { name: 'app', image: 'registry.example/app:1' };
  if (secret) {
    container.env = [
      {
        name: 'PASSWORD',
        valueFrom: { secretKeyRef: { name: secret, key: 'password' } },
      },
    ];
  }
  return {
    ...(metadata === undefined ? {} : { metadata }),
    spec: { containers: [container] },
  };
}

interface WorkloadOptions {
  secret?: string;
  /** The pod template's metadata; the default has labels and no annotations. */
  templateMetadata?: Json | null;
  spec?: Json;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function setup(
  options: { budget?: typeof INVENTORY_BUDGET; annotationPrefix?: string } = {},
) {
  const gateway = new InMemoryKubeGateway();
  const engine = new RestartConsumers({
    gateway,
    annotationPrefix: options.annotationPrefix ?? 'krypton.io',
    now: () => AT,
    budget: options.budget,
  });

  const put = (kind: WorkloadKind, name: string, o: WorkloadOptions = {}) => {
    const templateMetadata =
      o.templateMetadata === undefined
        ? { labels: { app: name } }
        : o.templateMetadata;
    return gateway.put(TYPES[kind], NS, {
      apiVersion: 'apps/v1',
      kind,
      metadata: { name, labels: o.labels, annotations: o.annotations },
      spec: {
        selector: { matchLabels: { app: name } },
        template: podTemplate(
          o.secret ?? SECRET,
          templateMetadata === null ? undefined : templateMetadata,
        ),
        ...o.spec,
      },
    });
  };
  /** A workload that references another Secret only. */
  const putOther = (kind: WorkloadKind, name: string) =>
    put(kind, name, { secret: 'other' });

  const get = (kind: WorkloadKind, name: string) =>
    gateway.get(TYPES[kind], NS, name);

  /** Every patch that reached the gateway's patch(), in call order. */
  const patches: Array<{
    kind: string;
    name: string;
    operations: JsonPatchOperation[];
  }> = [];
  const realPatch = gateway.patch.bind(gateway);
  const realList = gateway.list.bind(gateway);
  let patchHook: (kind: string, name: string) => Promise<void> = async () =>
    undefined;
  let listHook: (
    kind: string,
    page: Parameters<InMemoryKubeGateway['list']>[2],
  ) => Promise<void> = async () => undefined;
  gateway.patch = async (type, namespace, name, operations) => {
    patches.push({ kind: type.kind, name, operations });
    await patchHook(type.kind, name);
    return realPatch(type, namespace, name, operations);
  };
  gateway.list = async (type, namespace, page) => {
    await listHook(type.kind, page);
    return realList(type, namespace, page);
  };

  return {
    gateway,
    engine,
    put,
    putOther,
    get,
    patches,
    /** Runs before each patch reaches the gateway; throw to refuse it. */
    onPatch: (hook: typeof patchHook) => {
      patchHook = hook;
    },
    /** Runs before each list page reaches the gateway; throw to refuse it. */
    onList: (hook: typeof listHook) => {
      listHook = hook;
    },
    restart: () => engine.restart(NS, SECRET),
    patchCalls: () => gateway.calls.filter(c => c.startsWith('patch ')),
    listCalls: (kind: WorkloadKind) =>
      gateway.calls.filter(c => c === `list ${TYPES[kind].plural}`),
    templateMetadata: async (kind: WorkloadKind, name: string) =>
      ((await get(kind, name)).spec!.template as { metadata?: Json }).metadata,
  };
}

type Harness = ReturnType<typeof setup>;

const refusal = (status: number, reason?: string) => async () => {
  throw new KubeApiError(status, reason);
};

/** Refuses the requests for one kind and lets the other kinds through. */
const refusalFor =
  (only: WorkloadKind, status: number, reason?: string) =>
  async (kind: string) => {
    if (kind === only) throw new KubeApiError(status, reason);
  };

// The forbidden text is the spec's verbatim one rather than the engine's constant, so that a
// drifting constant fails.
const EXPECTED_MESSAGES: Record<RestartFailureCode, string> = {
  ...RESTART_MESSAGES,
  forbidden: FORBIDDEN_TEXT,
};

// A failure without an upstream status must be expected without the key, not with `undefined`,
// so that the same value also works under toStrictEqual.
function listFailure(
  kind: WorkloadKind,
  code: RestartFailureCode,
  httpStatus?: number,
): DiscoveryFailure {
  return {
    kind,
    code,
    message: EXPECTED_MESSAGES[code],
    ...(httpStatus === undefined ? {} : { httpStatus }),
  };
}

/** An inventory found incomplete locally, which the spec reports with 503. */
const incompleteList = (kind: WorkloadKind) =>
  listFailure(kind, 'incomplete_list', 503);

function patchFailure(
  kind: WorkloadKind,
  name: string,
  code: RestartFailureCode,
  httpStatus?: number,
): RestartFailure {
  return { name, ...listFailure(kind, code, httpStatus) };
}

/** A refused request, and the failure that restart must report for it. */
interface RefusalCase {
  what: string;
  status: number;
  reason?: string;
  code: RestartFailureCode;
  httpStatus?: number;
}

/** An upstream refusal, whose status the failure must carry unchanged. */
const refusedWith = (
  status: number,
  code: RestartFailureCode,
): RefusalCase => ({
  what: `refused with ${status}`,
  status,
  code,
  httpStatus: status,
});

describe('RestartConsumers.restart', () => {
  describe('requested', () => {
    it('patches every match across the three kinds and leaves other workloads unchanged', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('StatefulSet', 'db');
      t.put('DaemonSet', 'agent');
      const others = [
        t.putOther('Deployment', 'web'),
        t.putOther('StatefulSet', 'cache'),
        t.putOther('DaemonSet', 'logs'),
      ];

      const result = await t.restart();

      expect(result).toEqual<RestartResult>({
        status: 'requested',
        matched: 3,
        requested: [
          { kind: 'Deployment', name: 'api' },
          { kind: 'StatefulSet', name: 'db' },
          { kind: 'DaemonSet', name: 'agent' },
        ],
        failures: [],
        discoveryFailures: [],
        message: 'Rollout requested for 3 of 3 matched workloads.',
        note: NOTE_TEXT,
      });
      expect(result).not.toHaveProperty('error');
      expect(restartHttpStatus(result.status)).toBe(200);
      for (const { kind, name } of result.requested) {
        expect((await t.templateMetadata(kind, name))?.annotations).toEqual({
          [KEY]: AT.toISOString(),
        });
      }
      for (const before of others) {
        const after = await t.get(
          before.kind as WorkloadKind,
          before.metadata.name!,
        );
        expect(after).toEqual(before);
      }
      expect(t.patchCalls().sort()).toEqual([
        'patch daemonsets agent',
        'patch deployments api',
        'patch statefulsets db',
      ]);
    });

    it('tests the inspected UID and resourceVersion before setting the annotation', async () => {
      const t = setup();
      const listed = t.put('Deployment', 'api', {
        templateMetadata: { annotations: { keep: 'me' } },
      });

      await t.restart();

      expect(t.patches).toEqual([
        {
          kind: 'Deployment',
          name: 'api',
          operations: [
            { op: 'test', path: '/metadata/uid', value: listed.metadata.uid },
            {
              op: 'test',
              path: '/metadata/resourceVersion',
              value: listed.metadata.resourceVersion,
            },
            {
              op: 'add',
              path: '/spec/template/metadata/annotations/krypton.io~1restarted-at',
              value: AT.toISOString(),
            },
          ],
        },
      ]);
      expect(await t.templateMetadata('Deployment', 'api')).toEqual({
        annotations: { keep: 'me', [KEY]: AT.toISOString() },
      });
      expect(
        (await t.get('Deployment', 'api')).metadata.resourceVersion,
      ).not.toBe(listed.metadata.resourceVersion);
    });

    interface AnnotationCase {
      name: string;
      kind: WorkloadKind;
      templateMetadata: Json | null;
      annotationPrefix?: string;
      /** The operation after the two tests of the inspected identity. */
      operation: JsonPatchOperation;
      after: Json;
    }

    it.each<AnnotationCase>([
      {
        name: 'creates the template metadata when it is absent',
        kind: 'Deployment',
        templateMetadata: null,
        operation: {
          op: 'add',
          path: '/spec/template/metadata',
          value: { annotations: { [KEY]: AT.toISOString() } },
        },
        after: { annotations: { [KEY]: AT.toISOString() } },
      },
      {
        name: 'creates the annotations map when the template metadata has none, keeping its labels',
        kind: 'StatefulSet',
        templateMetadata: { labels: { app: 'db' } },
        operation: {
          op: 'add',
          path: '/spec/template/metadata/annotations',
          value: { [KEY]: AT.toISOString() },
        },
        after: {
          labels: { app: 'db' },
          annotations: { [KEY]: AT.toISOString() },
        },
      },
      {
        name: 'replaces an earlier restart annotation with the new timestamp',
        kind: 'DaemonSet',
        templateMetadata: {
          annotations: { [KEY]: '2020-01-01T00:00:00.000Z' },
        },
        operation: {
          op: 'add',
          path: '/spec/template/metadata/annotations/krypton.io~1restarted-at',
          value: AT.toISOString(),
        },
        after: { annotations: { [KEY]: AT.toISOString() } },
      },
      {
        name: 'escapes "~" as "~0" before "/" as "~1" in the annotation key',
        kind: 'Deployment',
        templateMetadata: { annotations: {} },
        annotationPrefix: 'a~1b.example',
        operation: {
          op: 'add',
          path: '/spec/template/metadata/annotations/a~01b.example~1restarted-at',
          value: AT.toISOString(),
        },
        after: {
          annotations: { 'a~1b.example/restarted-at': AT.toISOString() },
        },
      },
    ])(
      '$name',
      async ({
        kind,
        templateMetadata,
        annotationPrefix,
        operation,
        after,
      }) => {
        const t = setup({ annotationPrefix });
        t.put(kind, 'w', { templateMetadata });

        const result = await t.restart();

        expect(result.status).toBe('requested');
        expect(t.patches[0].operations.slice(2)).toEqual([operation]);
        expect(await t.templateMetadata(kind, 'w')).toEqual(after);
      },
    );

    it('lists every kind before the first patch', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('DaemonSet', 'agent');

      await t.restart();

      const firstPatch = t.gateway.calls.findIndex(c => c.startsWith('patch '));
      expect(t.gateway.calls.slice(0, firstPatch).sort()).toEqual([
        'list daemonsets',
        'list deployments',
        'list statefulsets',
      ]);
    });
  });

  describe('no_targets', () => {
    it('answers no_targets after complete inventories without matches, and patches nothing', async () => {
      const t = setup();
      t.putOther('Deployment', 'web');
      t.putOther('StatefulSet', 'cache');

      const result = await t.restart();

      expect(result).toEqual<RestartResult>({
        status: 'no_targets',
        matched: 0,
        requested: [],
        failures: [],
        discoveryFailures: [],
        message:
          'No Deployment, StatefulSet or DaemonSet in the namespace references this Secret.',
        note: NOTE_TEXT,
      });
      expect(restartHttpStatus(result.status)).toBe(200);
      expect(t.patches).toEqual([]);
      expect([...t.gateway.calls].sort()).toEqual([
        'list daemonsets',
        'list deployments',
        'list statefulsets',
      ]);
    });

    it('answers no_targets for an empty namespace', async () => {
      const result = await setup().restart();
      expect(result.status).toBe('no_targets');
      expect(result.matched).toBe(0);
    });
  });

  describe('partial', () => {
    it('reproduces the spec example: one patch refused with 403', async () => {
      const t = setup();
      t.put('Deployment', 'api-server');
      t.put('StatefulSet', 'worker');
      t.onPatch(refusalFor('StatefulSet', 403, 'Forbidden'));

      const result = await t.restart();

      expect(result).toEqual({
        status: 'partial',
        matched: 2,
        requested: [{ kind: 'Deployment', name: 'api-server' }],
        failures: [patchFailure('StatefulSet', 'worker', 'forbidden', 403)],
        discoveryFailures: [],
        message:
          'Rollout requested for 1 of 2 matched workloads. 1 patch request failed.',
        note: NOTE_TEXT,
      });
      expect(result.note).toBe(RESTART_NOTE);
      expect(restartHttpStatus(result.status)).toBe(207);
      expect(await t.templateMetadata('StatefulSet', 'worker')).toEqual({
        labels: { app: 'worker' },
      });
    });

    it('patches the known matches of other kinds when one inventory is refused, and nothing of that kind', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('DaemonSet', 'agent');
      t.onList(refusalFor('DaemonSet', 403, 'Forbidden'));

      const result = await t.restart();

      expect(result).toEqual<RestartResult>({
        status: 'partial',
        matched: 1,
        requested: [{ kind: 'Deployment', name: 'api' }],
        failures: [],
        discoveryFailures: [listFailure('DaemonSet', 'forbidden', 403)],
        message:
          'Rollout requested for 1 of 1 matched workload. Discovery failed for 1 workload kind.',
        note: NOTE_TEXT,
      });
      expect(restartHttpStatus(result.status)).toBe(207);
      expect(t.patchCalls()).toEqual(['patch deployments api']);
    });

    it.each([
      [410, 'Expired'],
      [400, 'BadRequest'],
    ])(
      'patches no match from the earlier pages of a kind whose continuation was refused with %i',
      async (status, reason) => {
        const t = setup();
        t.put('Deployment', 'api');
        t.put('StatefulSet', 'a-worker'); // first page
        for (let i = 0; i < INVENTORY_BUDGET.pageSize; i++) {
          t.putOther('StatefulSet', `s-${String(i).padStart(3, '0')}`);
        }
        t.onList(async (kind, page) => {
          if (kind === 'StatefulSet' && page.continueToken)
            throw new KubeApiError(status, reason);
        });

        const result = await t.restart();

        expect(result.status).toBe('partial');
        expect(result.matched).toBe(1);
        expect(result.requested).toEqual([{ kind: 'Deployment', name: 'api' }]);
        expect(result.discoveryFailures).toEqual([
          listFailure('StatefulSet', 'incomplete_list', status),
        ]);
        expect(t.patchCalls()).toEqual(['patch deployments api']);
        expect(t.listCalls('StatefulSet')).toHaveLength(1);
      },
    );
  });

  describe('failed', () => {
    it('answers failed with a discovery failure per kind when every list is refused', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.onList(refusal(403, 'Forbidden'));

      const result = await t.restart();

      expect(result).toEqual<RestartResult>({
        status: 'failed',
        matched: 0,
        requested: [],
        failures: [],
        discoveryFailures: KINDS.map(kind =>
          listFailure(kind, 'forbidden', 403),
        ),
        message:
          'No rollout was requested. Discovery failed for 3 workload kinds.',
        note: NOTE_TEXT,
        error:
          'No rollout was requested. Discovery failed for 3 workload kinds.',
      });
      expect(result.error).toBe(result.message);
      expect(restartHttpStatus(result.status)).toBe(503);
      expect(t.patches).toEqual([]);
    });

    it('failed discovery with zero known matches is failed, not no_targets', async () => {
      const t = setup();
      t.putOther('Deployment', 'web');
      t.put('DaemonSet', 'agent');
      t.onList(refusalFor('DaemonSet', 500, 'InternalError'));

      const result = await t.restart();

      expect(result.status).toBe('failed');
      expect(result.matched).toBe(0);
      expect(result.discoveryFailures).toEqual([
        listFailure('DaemonSet', 'unavailable', 500),
      ]);
      expect(result.error).toBe(result.message);
      expect(t.patches).toEqual([]);
    });

    it('answers failed when every patch fails', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('StatefulSet', 'db');
      t.onPatch(refusal(403, 'Forbidden'));

      const result = await t.restart();

      expect(result.status).toBe('failed');
      expect(result.matched).toBe(2);
      expect(result.requested).toEqual([]);
      expect(result.failures.map(f => [f.kind, f.name, f.code])).toEqual([
        ['Deployment', 'api', 'forbidden'],
        ['StatefulSet', 'db', 'forbidden'],
      ]);
      expect(result.message).toBe(
        'Rollout requested for 0 of 2 matched workloads. 2 patch requests failed.',
      );
      expect(result.error).toBe(result.message);
    });

    it.each<RefusalCase & { kind: WorkloadKind }>([
      { kind: 'StatefulSet', ...refusedWith(401, 'unauthenticated') },
      { kind: 'StatefulSet', ...refusedWith(404, 'not_found') },
      { kind: 'StatefulSet', ...refusedWith(422, 'invalid_request') },
      { kind: 'StatefulSet', ...refusedWith(429, 'rate_limited') },
      { kind: 'StatefulSet', ...refusedWith(503, 'unavailable') },
      {
        what: 'without an answer, without an httpStatus,',
        kind: 'Deployment',
        status: 0,
        reason: 'Network',
        code: 'unavailable',
      },
    ])(
      'classifies a $kind list $what as $code',
      async ({ kind, status, reason, code, httpStatus }) => {
        const t = setup();
        t.onList(refusalFor(kind, status, reason));

        const result = await t.restart();

        expect(result.status).toBe('failed');
        // Strict, so that a failure without an upstream status cannot carry the key at all.
        expect(result.discoveryFailures).toStrictEqual([
          listFailure(kind, code, httpStatus),
        ]);
      },
    );
  });

  describe('conflicts and unconfirmed patches', () => {
    it('reports conflict (422) when the workload was edited between discovery and patch, without retrying', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.onPatch(async (_kind, name) => {
        const current = await t.get('Deployment', name);
        t.gateway.put(DEPLOYMENTS, NS, {
          ...current,
          metadata: { ...current.metadata, labels: { edited: 'yes' } },
        });
      });

      const result = await t.restart();

      expect(result).toEqual<RestartResult>({
        status: 'failed',
        matched: 1,
        requested: [],
        failures: [patchFailure('Deployment', 'api', 'conflict', 422)],
        discoveryFailures: [],
        message:
          'Rollout requested for 0 of 1 matched workload. 1 patch request failed.',
        note: NOTE_TEXT,
        error:
          'Rollout requested for 0 of 1 matched workload. 1 patch request failed.',
      });
      expect(t.patchCalls()).toEqual(['patch deployments api']);
      expect(await t.templateMetadata('Deployment', 'api')).toEqual({
        labels: { app: 'api' },
      });
    });

    it('reports conflict when the reference was removed after discovery (edit made inside the list)', async () => {
      const t = setup();
      t.put('StatefulSet', 'db');
      t.put('Deployment', 'api');
      const list = t.gateway.list;
      let edited = false;
      t.gateway.list = async (type, namespace, page) => {
        const served = await list(type, namespace, page);
        if (type.kind === 'StatefulSet' && !edited) {
          // Another client removes the reference after the page was served.
          edited = true;
          const current = await t.get('StatefulSet', 'db');
          t.gateway.put(STATEFUL_SETS, NS, {
            ...current,
            spec: {
              ...current.spec,
              template: podTemplate('other', { labels: { app: 'db' } }),
            },
          });
        }
        return served;
      };

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.requested).toEqual([{ kind: 'Deployment', name: 'api' }]);
      expect(result.failures).toEqual([
        patchFailure('StatefulSet', 'db', 'conflict', 422),
      ]);
      expect(t.patchCalls().filter(c => c.includes('statefulsets'))).toEqual([
        'patch statefulsets db',
      ]);
      expect(await t.templateMetadata('StatefulSet', 'db')).toEqual({
        labels: { app: 'db' },
      });
    });

    it('reports conflict when a same-name replacement (new UID) appeared after discovery', async () => {
      const t = setup();
      const listed = t.put('DaemonSet', 'agent');
      t.onPatch(async () => {
        const current = await t.get('DaemonSet', 'agent');
        const {
          uid: _uid,
          resourceVersion: _rv,
          ...metadata
        } = current.metadata;
        t.gateway.put(DAEMON_SETS, NS, { ...current, metadata });
      });

      const result = await t.restart();

      expect(result.failures).toEqual([
        patchFailure('DaemonSet', 'agent', 'conflict', 422),
      ]);
      const replacement = await t.get('DaemonSet', 'agent');
      expect(replacement.metadata.uid).not.toBe(listed.metadata.uid);
      expect(t.patches[0].operations[0]).toEqual({
        op: 'test',
        path: '/metadata/uid',
        value: listed.metadata.uid,
      });
      expect((replacement.spec!.template as Json).metadata).toEqual({
        labels: { app: 'agent' },
      });
      expect(t.patchCalls()).toEqual(['patch daemonsets agent']);
    });

    it.each<RefusalCase>([
      refusedWith(400, 'invalid_request'),
      refusedWith(401, 'unauthenticated'),
      refusedWith(404, 'not_found'),
      { ...refusedWith(409, 'conflict'), reason: 'Conflict' },
      refusedWith(429, 'rate_limited'),
      refusedWith(500, 'unavailable'),
      {
        what: 'without an answer, without an httpStatus,',
        status: 0,
        reason: 'Network',
        code: 'unconfirmed',
      },
    ])(
      'reports a patch $what as $code, attempted once',
      async ({ status, reason, code, httpStatus }) => {
        const t = setup();
        t.put('Deployment', 'api');
        t.onPatch(refusal(status, reason));

        const result = await t.restart();

        expect(result.status).toBe('failed');
        // Strict, so that a failure without an upstream status cannot carry the key at all.
        expect(result.failures).toStrictEqual([
          patchFailure('Deployment', 'api', code, httpStatus),
        ]);
        expect(t.patches).toHaveLength(1);
      },
    );

    // HttpKubeGateway answers a success status whose body it cannot read with
    // KubeApiError(0, 'MalformedResponse'): the patch was applied but not confirmed, and no
    // upstream status failed, so none is reported.
    it('reports a patch acknowledged with an unreadable body as unconfirmed, without an httpStatus', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('StatefulSet', 'db');
      t.onPatch(refusalFor('Deployment', 0, 'MalformedResponse'));

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.requested).toEqual([{ kind: 'StatefulSet', name: 'db' }]);
      expect(result.failures).toEqual([
        patchFailure('Deployment', 'api', 'unconfirmed'),
      ]);
      expect(result.failures[0]).not.toHaveProperty('httpStatus');
    });

    it('reports a patch that failed with no KubeApiError as unavailable', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.onPatch(async () => {
        throw new Error('secret upstream detail');
      });

      const result = await t.restart();

      expect(result.failures).toEqual([
        patchFailure('Deployment', 'api', 'unavailable'),
      ]);
      expect(JSON.stringify(result)).not.toContain('secret upstream detail');
    });

    it('reports a workload deleted after discovery as not_found', async () => {
      const t = setup();
      const listed = t.put('Deployment', 'api');
      t.onPatch(async () => {
        await t.gateway.delete(DEPLOYMENTS, NS, 'api', {
          uid: listed.metadata.uid!,
          resourceVersion: listed.metadata.resourceVersion!,
        });
      });

      const result = await t.restart();

      expect(result.failures).toEqual([
        patchFailure('Deployment', 'api', 'not_found', 404),
      ]);
    });
  });

  describe('malformed identities', () => {
    /** Serves the listed workload of that name with its metadata changed. */
    function withListed(
      t: Harness,
      name: string,
      change: (metadata: Json) => void,
    ) {
      const list = t.gateway.list;
      t.gateway.list = async (type, namespace, page) => {
        const served = await list(type, namespace, page);
        for (const item of served.items as KubeObject[]) {
          if (item.metadata.name === name)
            change(item.metadata as unknown as Json);
        }
        return served;
      };
    }

    // The reported name is the listed one whenever that is a string.
    it.each<[what: string, change: (m: Json) => void, reportedName: string]>([
      ['a missing uid', m => delete m.uid, 'broken'],
      ['an empty uid', m => (m.uid = ''), 'broken'],
      ['a numeric uid', m => (m.uid = 7), 'broken'],
      ['a missing resourceVersion', m => delete m.resourceVersion, 'broken'],
      ['an empty resourceVersion', m => (m.resourceVersion = ''), 'broken'],
      ['a numeric resourceVersion', m => (m.resourceVersion = 1001), 'broken'],
      ['a missing name', m => delete m.name, ''],
      ['a numeric name', m => (m.name = 5), ''],
      ['an invalid name', m => (m.name = 'Broken/../x'), 'Broken/../x'],
    ])(
      'reports a match with %s as incomplete_list (503) and never patches it',
      async (_what, change, reportedName) => {
        const t = setup();
        t.put('Deployment', 'api');
        t.put('StatefulSet', 'broken');
        withListed(t, 'broken', change);

        const result = await t.restart();

        expect(result.status).toBe('partial');
        expect(result.matched).toBe(2);
        expect(result.requested).toEqual([{ kind: 'Deployment', name: 'api' }]);
        expect(result.failures).toEqual([
          {
            kind: 'StatefulSet',
            name: reportedName,
            code: 'incomplete_list',
            message: expect.any(String),
            httpStatus: 503,
          },
        ]);
        expect(t.patchCalls()).toEqual(['patch deployments api']);
      },
    );

    it('answers failed when the only match has a malformed identity', async () => {
      const t = setup();
      t.put('DaemonSet', 'broken');
      withListed(t, 'broken', m => delete m.uid);

      const result = await t.restart();

      expect(result.status).toBe('failed');
      expect(result.failures.map(f => [f.code, f.httpStatus])).toEqual([
        ['incomplete_list', 503],
      ]);
      expect(result.error).toBe(result.message);
      expect(t.patches).toEqual([]);
    });
  });

  describe('collection budgets', () => {
    /** Minimal Deployments, so that thousands list quickly. */
    function fill(t: Harness, count: number) {
      for (let i = 0; i < count; i++) {
        t.gateway.put(DEPLOYMENTS, NS, {
          metadata: { name: `d-${String(i).padStart(4, '0')}` },
          spec: { template: { spec: { containers: [{ name: 'c' }] } } },
        });
      }
    }

    it('uses 100-object pages and the 2,000-object, 100-page and 32 MiB budget by default', () => {
      expect(INVENTORY_BUDGET).toEqual({
        pageSize: 100,
        maxPages: 100,
        maxObjects: 2000,
        maxBytes: 32 * 1024 * 1024,
      });
    });

    it('reads 2,000 Deployments in full and patches the match on the first page', async () => {
      const t = setup();
      t.put('Deployment', 'a-api');
      fill(t, 1999);
      const pages: Array<{ kind: string; limit: number }> = [];
      t.onList(async (kind, page) => {
        pages.push({ kind, limit: page.limit });
      });

      const result = await t.restart();

      expect(result.status).toBe('requested');
      expect(result.requested).toEqual([{ kind: 'Deployment', name: 'a-api' }]);
      expect(pages.filter(p => p.kind === 'Deployment')).toHaveLength(20);
      expect(pages.every(p => p.limit === 100)).toBe(true);
    });

    it('refuses 2,001 Deployments as incomplete_list and patches none of them', async () => {
      const t = setup();
      t.put('Deployment', 'a-api');
      fill(t, 2000);
      t.put('StatefulSet', 'db');

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.requested).toEqual([{ kind: 'StatefulSet', name: 'db' }]);
      expect(result.discoveryFailures).toEqual([incompleteList('Deployment')]);
      expect(t.patchCalls()).toEqual(['patch statefulsets db']);
    });

    it('refuses a repeated continuation token as incomplete_list', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      const list = t.gateway.list;
      t.gateway.list = async (type, namespace, page) => {
        const served = await list(type, namespace, {
          ...page,
          continueToken: undefined,
        });
        return type.kind === 'Deployment'
          ? { ...served, continueToken: 'same' }
          : served;
      };

      const result = await t.restart();

      expect(result.status).toBe('failed');
      expect(result.matched).toBe(0);
      expect(result.discoveryFailures).toEqual([incompleteList('Deployment')]);
      expect(t.listCalls('Deployment')).toHaveLength(2);
      expect(t.patches).toEqual([]);
    });

    it('follows fresh continuation tokens to the end', async () => {
      const t = setup({ budget: { ...INVENTORY_BUDGET, pageSize: 2 } });
      for (const name of ['a', 'b', 'c', 'd', 'e']) t.put('Deployment', name);

      const result = await t.restart();

      expect(result.status).toBe('requested');
      expect(result.requested.map(r => r.name)).toEqual([
        'a',
        'b',
        'c',
        'd',
        'e',
      ]);
      expect(t.listCalls('Deployment')).toHaveLength(3);
    });

    it('refuses an inventory over the byte budget as incomplete_list, patching none of its earlier pages', async () => {
      const budget = { ...INVENTORY_BUDGET, pageSize: 1 };
      const t = setup({ budget });
      t.put('Deployment', 'a-api'); // the match, on the first page
      t.put('Deployment', 'b-api');
      t.put('Deployment', 'c-api'); // the third page overruns the budget
      t.put('DaemonSet', 'agent');
      // Pages of one equally long Deployment each: two fit, the third does not.
      const bytes = JSON.stringify([await t.get('Deployment', 'a-api')]).length;
      budget.maxBytes = Math.floor(bytes * 2.5);

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.requested).toEqual([{ kind: 'DaemonSet', name: 'agent' }]);
      expect(result.discoveryFailures).toEqual([incompleteList('Deployment')]);
      expect(t.patchCalls()).toEqual(['patch daemonsets agent']);
    });

    it('refuses a page whose reported bytes overrun the budget as incomplete_list', async () => {
      const t = setup({ budget: { ...INVENTORY_BUDGET, maxBytes: 10_000 } });
      t.put('StatefulSet', 'db');
      const list = t.gateway.list;
      t.gateway.list = async (type, namespace, page) => {
        const served = await list(type, namespace, page);
        return type.kind === 'StatefulSet'
          ? { ...served, bytes: 10_001 }
          : served;
      };

      const result = await t.restart();

      expect(result.status).toBe('failed');
      expect(
        result.discoveryFailures.map(f => [f.kind, f.code, f.httpStatus]),
      ).toEqual([['StatefulSet', 'incomplete_list', 503]]);
      expect(t.patches).toEqual([]);
    });
  });

  describe('malformed and inconsistent lists', () => {
    it('stops an endless list of fresh continuation tokens at 100 pages, as incomplete_list', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('DaemonSet', 'agent');
      const list = t.gateway.list;
      let token = 0;
      t.gateway.list = async (type, namespace, page) => {
        const served = await list(type, namespace, {
          ...page,
          continueToken: undefined,
        });
        if (type.kind !== 'Deployment') return served;
        token++;
        return {
          ...served,
          items: token === 1 ? served.items : [],
          continueToken: `t${token}`,
        };
      };

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.requested).toEqual([{ kind: 'DaemonSet', name: 'agent' }]);
      expect(result.discoveryFailures).toEqual([incompleteList('Deployment')]);
      expect(t.listCalls('Deployment')).toHaveLength(100);
      expect(t.patchCalls()).toEqual(['patch daemonsets agent']);
    });

    it('refuses a page with more objects than asked for, as incomplete_list', async () => {
      const t = setup({ budget: { ...INVENTORY_BUDGET, pageSize: 2 } });
      for (const name of ['a', 'b']) t.put('Deployment', name);
      const list = t.gateway.list;
      t.gateway.list = async (type, namespace, page) => {
        const served = await list(type, namespace, { ...page, limit: 3 });
        return { ...served, continueToken: undefined };
      };
      t.put('Deployment', 'c');

      const result = await t.restart();

      expect(result.status).toBe('failed');
      expect(result.discoveryFailures).toEqual([incompleteList('Deployment')]);
      expect(t.patches).toEqual([]);
    });

    // Spec: "A malformed/inconsistent/over-budget list ... uses incomplete_list"; httpStatus is
    // "503 for a locally detected incomplete inventory". HttpKubeGateway.page() throws
    // KubeApiError(0, 'MalformedResponse') for a list body it cannot read (a page without list
    // metadata, or whose continuation is not a string, included).
    it('reports a malformed list page as incomplete_list with httpStatus 503', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.onList(refusalFor('StatefulSet', 0, 'MalformedResponse'));

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.discoveryFailures).toEqual([incompleteList('StatefulSet')]);
    });

    // Spec: "A malformed/inconsistent/over-budget list ... uses incomplete_list and is not
    // silently truncated." A list that serves the same workload twice is inconsistent.
    it('reports an inconsistent list (the same workload on two pages) as incomplete_list, and patches nothing of that kind', async () => {
      const t = setup({ budget: { ...INVENTORY_BUDGET, pageSize: 1 } });
      t.put('Deployment', 'api');
      t.put('StatefulSet', 'db');
      const list = t.gateway.list;
      let calls = 0;
      t.gateway.list = async (type, namespace, page) => {
        if (type.kind !== 'Deployment') return list(type, namespace, page);
        calls++;
        // Both pages serve the same Deployment; the first one promises more.
        const served = await list(type, namespace, {
          ...page,
          continueToken: undefined,
        });
        return {
          ...served,
          continueToken: calls === 1 ? 'next' : undefined,
        };
      };

      const result = await t.restart();

      // Actual: matched 3, requested Deployment/api and StatefulSet/db, and a conflict (422)
      // failure for the same Deployment/api after a second patch of it.
      expect(result.discoveryFailures).toEqual([incompleteList('Deployment')]);
      expect(result.requested).toEqual([{ kind: 'StatefulSet', name: 'db' }]);
      expect(result.failures).toEqual([]);
      expect(t.patchCalls()).toEqual(['patch statefulsets db']);
    });
  });

  describe('concurrency', () => {
    it('keeps at most four patches in flight across all kinds', async () => {
      const t = setup();
      for (const kind of KINDS) {
        for (let i = 0; i < 4; i++) t.put(kind, `${kind.toLowerCase()}-${i}`);
      }
      let inFlight = 0;
      let max = 0;
      const inner = t.gateway.patch;
      t.gateway.patch = async (type, namespace, name, operations) => {
        inFlight++;
        max = Math.max(max, inFlight);
        try {
          await new Promise(resolve => setTimeout(resolve, 5));
          return await inner(type, namespace, name, operations);
        } finally {
          inFlight--;
        }
      };

      const result = await t.restart();

      expect(MAX_PATCHES_IN_FLIGHT).toBe(4);
      expect(result.status).toBe('requested');
      expect(result.requested).toHaveLength(12);
      expect(max).toBe(4);
      expect(t.patches).toHaveLength(12);
    });

    it('keeps going after failures in the pool', async () => {
      const t = setup();
      for (let i = 0; i < 10; i++) t.put('Deployment', `d-${i}`);
      t.onPatch(async (_kind, name) => {
        if (Number(name.slice(2)) % 2 === 0)
          throw new KubeApiError(403, 'Forbidden');
      });

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.matched).toBe(10);
      expect(result.requested.map(r => r.name)).toEqual([
        'd-1',
        'd-3',
        'd-5',
        'd-7',
        'd-9',
      ]);
      expect(result.failures.map(f => f.name)).toEqual([
        'd-0',
        'd-2',
        'd-4',
        'd-6',
        'd-8',
      ]);
      expect(result.message).toBe(
        'Rollout requested for 5 of 10 matched workloads. 5 patch requests failed.',
      );
    });
  });

  describe('message and note', () => {
    it('summarizes patch and discovery failures together', async () => {
      const t = setup();
      t.put('Deployment', 'api');
      t.put('Deployment', 'web');
      t.onPatch(async (_kind, name) => {
        if (name === 'web') throw new KubeApiError(429);
      });
      t.onList(async kind => {
        if (kind !== 'Deployment') throw new KubeApiError(403);
      });

      const result = await t.restart();

      expect(result.status).toBe('partial');
      expect(result.message).toBe(
        'Rollout requested for 1 of 2 matched workloads. 1 patch request failed. Discovery failed for 2 workload kinds.',
      );
      expect(result.note).toBe(NOTE_TEXT);
      expect(result).not.toHaveProperty('error');
    });

    it('carries no UID or resourceVersion in the result', async () => {
      const t = setup();
      const listed = t.put('Deployment', 'api');
      t.onPatch(refusal(409, 'Conflict'));

      const body = JSON.stringify(await t.restart());

      expect(body).not.toContain(listed.metadata.uid!);
      expect(body).not.toContain(`"${listed.metadata.resourceVersion}"`);
    });
  });
});

describe('RestartConsumers.consumers', () => {
  it('describes each consuming workload, sorted by kind then name, without patching', async () => {
    const t = setup();
    t.put('StatefulSet', 'zeta', {
      spec: { updateStrategy: { type: 'OnDelete' } },
    });
    t.put('StatefulSet', 'alpha', {
      spec: { updateStrategy: { type: 'RollingUpdate' } },
    });
    t.put('Deployment', 'web', {
      spec: { paused: true },
      labels: { 'app.kubernetes.io/name': 'web', team: 'a' },
    });
    t.put('Deployment', 'api', {
      annotations: { 'reloader.stakater.com/auto': 'true' },
    });
    t.put('DaemonSet', 'agent', {
      spec: { updateStrategy: { type: 'OnDelete' } },
      annotations: { 'secret.reloader.stakater.com/reload': 'other, db-creds' },
    });
    t.putOther('Deployment', 'unrelated');
    t.gateway.put(DAEMON_SETS, NS, {
      metadata: { name: 'mounts' },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'a', envFrom: [{ secretRef: { name: SECRET } }] },
              {
                name: 'b',
                env: [
                  { name: 'X', valueFrom: { secretKeyRef: { name: SECRET } } },
                ],
              },
            ],
            volumes: [
              { name: 'creds', secret: { secretName: SECRET } },
              {
                name: 'bundle',
                projected: { sources: [{ secret: { name: SECRET } }] },
              },
            ],
            imagePullSecrets: [{ name: SECRET }],
          },
        },
      },
    });
    // Every workload above but `mounts` reads the Secret through the default pod template.
    const consumer = (
      kind: WorkloadKind,
      name: string,
      flags: Partial<ConsumerWorkload> = {},
    ): ConsumerWorkload => ({
      kind,
      name,
      usages: [{ type: 'env', containers: ['app'] }],
      paused: false,
      onDelete: false,
      reloader: false,
      labels: {},
      ...flags,
    });

    const result = await t.engine.consumers(NS, SECRET);

    expect(result).toEqual({
      workloads: [
        consumer('DaemonSet', 'agent', { onDelete: true, reloader: true }),
        consumer('DaemonSet', 'mounts', {
          usages: [
            { type: 'env', containers: ['b'] },
            { type: 'envFrom', containers: ['a'] },
            { type: 'volume', volume: 'creds' },
            { type: 'projected', volume: 'bundle' },
            { type: 'imagePullSecret' },
          ],
        }),
        consumer('Deployment', 'api', { reloader: true }),
        consumer('Deployment', 'web', {
          paused: true,
          labels: { 'app.kubernetes.io/name': 'web', team: 'a' },
        }),
        consumer('StatefulSet', 'alpha'),
        consumer('StatefulSet', 'zeta', { onDelete: true }),
      ],
      discoveryFailures: [],
    });
    expect(t.patches).toEqual([]);
    expect(t.patchCalls()).toEqual([]);
  });

  it.each<
    [
      name: string,
      kind: WorkloadKind,
      options: WorkloadOptions,
      expected: Partial<ConsumerWorkload>,
    ]
  >([
    [
      'paused only on Deployments',
      'StatefulSet',
      { spec: { paused: true } },
      { paused: false },
    ],
    [
      'paused must be true',
      'Deployment',
      { spec: { paused: 'true' } },
      { paused: false },
    ],
    [
      'OnDelete is not a Deployment strategy',
      'Deployment',
      {
        spec: {
          strategy: { type: 'OnDelete' },
          updateStrategy: { type: 'OnDelete' },
        },
      },
      { onDelete: false },
    ],
    [
      'auto must be "true"',
      'Deployment',
      { annotations: { 'reloader.stakater.com/auto': 'false' } },
      { reloader: false },
    ],
    [
      'secret auto annotation',
      'StatefulSet',
      { annotations: { 'secret.reloader.stakater.com/auto': 'true' } },
      { reloader: true },
    ],
    [
      'reload list naming another Secret with this one as a prefix',
      'Deployment',
      {
        annotations: {
          'secret.reloader.stakater.com/reload': 'db-creds-old,db',
        },
      },
      { reloader: false },
    ],
    [
      'reload list naming exactly this Secret',
      'DaemonSet',
      { annotations: { 'secret.reloader.stakater.com/reload': 'db-creds' } },
      { reloader: true },
    ],
    [
      'a reload annotation on the pod template does not count',
      'Deployment',
      {
        templateMetadata: {
          annotations: { 'reloader.stakater.com/auto': 'true' },
        },
      },
      { reloader: false },
    ],
  ])('flags: %s', async (_name, kind, options, expected) => {
    const t = setup();
    t.put(kind, 'w', options);

    const { workloads } = await t.engine.consumers(NS, SECRET);

    expect(workloads).toHaveLength(1);
    expect(workloads[0]).toEqual(expect.objectContaining(expected));
  });

  it('copies the labels, so that changing the answer cannot change the listed object', async () => {
    const t = setup();
    t.put('Deployment', 'api', { labels: { team: 'a' } });

    const { workloads } = await t.engine.consumers(NS, SECRET);

    expect(workloads[0].labels).toEqual({ team: 'a' });
    workloads[0].labels.team = 'b';
    expect((await t.get('Deployment', 'api')).metadata.labels).toEqual({
      team: 'a',
    });
  });

  it('reports discovery failures with the same shape as restart, and the other kinds', async () => {
    const t = setup();
    t.put('Deployment', 'api');
    t.put('StatefulSet', 'db');
    t.onList(refusalFor('StatefulSet', 403, 'Forbidden'));

    const consumers = await t.engine.consumers(NS, SECRET);
    const restart = await t.restart();

    expect(consumers.workloads.map(w => [w.kind, w.name])).toEqual([
      ['Deployment', 'api'],
    ]);
    expect(consumers.discoveryFailures).toEqual([
      listFailure('StatefulSet', 'forbidden', 403),
    ]);
    expect(restart.discoveryFailures).toEqual(consumers.discoveryFailures);
  });

  // The gateway accepts any object with an object metadata (HttpKubeGateway isKubeObject), and the
  // engine reads other malformed fields as absent; restartConsumers.ts watchedByReloader() calls
  // .split on the annotation value without checking that it is a string.
  it('reads a non-string secret.reloader.stakater.com/reload annotation as absent', async () => {
    const t = setup();
    t.put('Deployment', 'api');
    const list = t.gateway.list;
    t.gateway.list = async (type, namespace, page) => {
      const served = await list(type, namespace, page);
      for (const item of served.items) {
        (item.metadata as { annotations?: unknown }).annotations = {
          'secret.reloader.stakater.com/reload': ['db-creds'],
        };
      }
      return served;
    };

    const answer = t.engine.consumers(NS, SECRET);

    await expect(answer).resolves.toEqual({
      workloads: [expect.objectContaining({ name: 'api', reloader: false })],
      discoveryFailures: [],
    });
  });

  it('lists nothing for a namespace without consumers', async () => {
    const t = setup();
    t.putOther('Deployment', 'web');
    expect(await t.engine.consumers(NS, SECRET)).toEqual({
      workloads: [],
      discoveryFailures: [],
    });
  });
});

describe('classifyRestartFailure', () => {
  interface ClassifyCase {
    what: string;
    err: unknown;
    step: 'list' | 'patch';
    expected: ReturnType<typeof classifyRestartFailure>;
  }

  // Spec: httpStatus is "a numeric upstream status when available, or 503 for a locally detected
  // incomplete inventory". Status 0 is the gateway's "no usable answer": none arrived, or a success
  // status came with a body it could not read. Neither has an upstream status to report.
  // toStrictEqual, so that an expected answer without httpStatus also rules out the key.
  it.each<ClassifyCase>([
    {
      what: 'a lost answer on a patch without an httpStatus',
      err: new KubeApiError(0, 'Network'),
      step: 'patch',
      expected: { code: 'unconfirmed' },
    },
    {
      what: 'a timeout on a patch without an httpStatus',
      err: new KubeApiError(0, 'Timeout'),
      step: 'patch',
      expected: { code: 'unconfirmed' },
    },
    {
      what: 'an unreadable success body on a patch without an httpStatus',
      err: new KubeApiError(0, 'MalformedResponse'),
      step: 'patch',
      expected: { code: 'unconfirmed' },
    },
    {
      what: 'a lost answer on a list without an httpStatus',
      err: new KubeApiError(0, 'Network'),
      step: 'list',
      expected: { code: 'unavailable' },
    },
    {
      what: 'a malformed page as incomplete_list with httpStatus 503',
      err: new IncompleteListError('malformed'),
      step: 'list',
      expected: { code: 'incomplete_list', httpStatus: 503 },
    },
    {
      what: 'a refused request keeping its upstream status',
      err: new KubeApiError(502),
      step: 'patch',
      expected: { code: 'unavailable', httpStatus: 502 },
    },
  ])('classifies $what', ({ err, step, expected }) => {
    expect(classifyRestartFailure(err, step)).toStrictEqual(expected);
  });
});
