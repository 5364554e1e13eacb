/*
 * Fault injection over restart-consumers. A clean restart of one Secret's consumers makes a fixed
 * set of Kubernetes requests: the live Secret read that gates the route, the dry-run update of it
 * that proves the user's right before Krypton's identity acts (hybrid mode), the three workload
 * inventories (Deployments in two pages, so that a continuation can fail after a page with a
 * match), and one conditional JSON Patch per consumer. Each of them is failed in turn at the fault
 * proxy with an upstream 500, a 429, a connection reset, a timeout (the request held past the
 * backend's Kubernetes request deadline, DEADLINE_MS here) and, for patches, a reset and a timeout
 * after the apiserver applied the patch. Lists are also answered with the apiserver's own page
 * whose continuation is not a string, or without list metadata: a malformed page that must be
 * incomplete_list (503), never read as the last page. Patches are also applied and then answered
 * 200 with a body that cannot be read: unconfirmed, with no invented httpStatus. Each run must
 * answer the spec's status and body
 * (docs/spec/restart-consumers-api.txt), patch exactly the workloads it reports as requested
 * (plus, after a fault past forwarding, the one it reports as unconfirmed), change nothing else,
 * and a retry without faults must request every match.
 *
 * The cases run a few at a time, each on a lane of its own: a namespace with the same workloads,
 * a proxy and a backend. A lane serves one case at a time, so each case sees only its own
 * requests, log lines and restarts, while the deadlines that the timeouts wait out overlap.
 */
import {
  FaultAction,
  FaultProxy,
  FaultRule,
  RecordedRequest,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
  WorkloadKind,
  container,
  createWorkload,
  workloadPath,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { FixturePool } from '../../__testUtils__/pool';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/**
 * The backend's deadline of one Kubernetes request (krypton.kubernetes.requestTimeoutMs). Long
 * enough that an unfaulted list on a loaded CI machine never reaches it: at 600 ms one did, and
 * its kind showed up as an unexpected discovery failure.
 */
const DEADLINE_MS = 1500;
/** Fault cases in flight at once, each on a lane of its own. */
const LANES = 3;
const SECRET = 'db';
const RESTARTED_AT = 'krypton.io/restarted-at';
const KINDS: WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet'];

// The spec's texts, word for word where it gives them; the fixed guidance of the others.
const NOTE =
  'Only acknowledged pod-template patches are reported as requested. Rollout completion, readiness, and credential uptake are not verified.';
const UNAVAILABLE = 'Kubernetes is unavailable. Try again later.';
const RATE_LIMITED = 'Kubernetes is rate-limiting requests. Try again later.';
const UNCONFIRMED =
  'No usable answer arrived, so it is not known whether the rollout was requested. Check the workload before retrying.';
const INCOMPLETE_LIST =
  'The workload list could not be read completely (over budget, or a continuation that was invalid, repeated or expired), so no workload of this kind was restarted.';

/**
 * The consumers, one per reference path family and kind. Deployments are listed by name in pages
 * of 100: a-api is on the first page and zz-worker on the second, behind 100 fillers.
 */
const CONSUMERS: Array<[WorkloadKind, string, Record<string, unknown>]> = [
  [
    'Deployment',
    'a-api',
    { containers: [container({ envFrom: [{ secretRef: { name: SECRET } }] })] },
  ],
  [
    'Deployment',
    'zz-worker',
    { volumes: [{ name: 'creds', secret: { secretName: SECRET } }] },
  ],
  [
    'StatefulSet',
    'ledger',
    {
      containers: [
        container({
          env: [
            {
              name: 'PASSWORD',
              valueFrom: { secretKeyRef: { name: SECRET, key: 'password' } },
            },
          ],
        }),
      ],
    },
  ],
  ['DaemonSet', 'agent', { imagePullSecrets: [{ name: SECRET }] }],
];
/** A near miss: it references another Secret. */
const BYSTANDER: [WorkloadKind, string, Record<string, unknown>] = [
  'Deployment',
  'b-other',
  { containers: [container({ envFrom: [{ secretRef: { name: 'db2' } }] })] },
];
const FILLERS = Array.from(
  { length: 100 },
  (_, i) => `filler-${String(i).padStart(3, '0')}`,
);

type Ref = { kind: WorkloadKind; name: string };
const refOf = ([kind, name]: [WorkloadKind, string, unknown]): Ref => ({
  kind,
  name,
});
const keyOf = (r: { kind: string; name?: string }) =>
  r.name === undefined ? r.kind : `${r.kind}/${r.name}`;
const byKey = (a: { kind: string; name?: string }, b: typeof a) =>
  keyOf(a).localeCompare(keyOf(b));

/** The requests of a restart, by name: the steps of the matrix. */
const READ_STEPS = [
  'GET secret',
  'PROVE secret',
  'LIST Deployment page 1',
  'LIST Deployment page 2',
  'LIST StatefulSet',
  'LIST DaemonSet',
] as const;
const PATCH_STEPS = CONSUMERS.map(c => `PATCH ${keyOf(refOf(c))}`);
const STEPS: string[] = [...READ_STEPS, ...PATCH_STEPS];

type FaultName =
  | 'respond 500'
  | 'respond 429'
  | 'reset'
  | 'resetAfterForward'
  | 'timeout'
  | 'timeoutAfterForward'
  | 'continue 5'
  | 'continue null'
  | 'no list metadata'
  | '200 not json'
  | '200 no metadata';

interface Fault {
  action: FaultAction;
  /** The upstream status that the backend saw, if any. */
  httpStatus?: number;
  /** The backend got no answer: its gateway logs the request with this reason. */
  unanswered?: 'Network' | 'Timeout';
  /** The apiserver applied the request before the fault. */
  applied: boolean;
  /** A fault after forwarding: only patches, whose effect differs. */
  patchesOnly?: true;
  /** A fault in the shape of a list page: only lists. */
  listsOnly?: true;
  /** The answer is a malformed page: the inventory is incomplete. */
  incomplete?: true;
}

type ListPage = { metadata?: Record<string, unknown> };

/** The apiserver's own page with its list metadata edited: its items are real. */
const editedPage = (edit: (page: ListPage) => void): FaultAction => ({
  respondAfterForward: {
    body: ({ body }) => {
      const page = JSON.parse(body) as ListPage;
      edit(page);
      return JSON.stringify(page);
    },
  },
});

const upstream = (code: number, reason: string) =>
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason,
    code,
  });

const FAULTS: Record<FaultName, Fault> = {
  'respond 500': {
    action: { respond: { status: 500, body: upstream(500, 'InternalError') } },
    httpStatus: 500,
    applied: false,
  },
  'respond 429': {
    action: {
      respond: { status: 429, body: upstream(429, 'TooManyRequests') },
    },
    httpStatus: 429,
    applied: false,
  },
  reset: { action: { reset: true }, unanswered: 'Network', applied: false },
  resetAfterForward: {
    action: { resetAfterForward: true },
    unanswered: 'Network',
    applied: true,
    patchesOnly: true,
  },
  // Held at the proxy, never forwarded, until the backend gives up at its deadline.
  timeout: { action: { hold: true }, unanswered: 'Timeout', applied: false },
  // Applied at once; the answer would come long after the deadline (a backend without one would
  // get it, and fail the checks below rather than hang).
  timeoutAfterForward: {
    action: { delayAfterForwardMs: 5 * DEADLINE_MS },
    unanswered: 'Timeout',
    applied: true,
    patchesOnly: true,
  },
  // Not a string: whether more pages follow is unknown, so the page is not the last one.
  'continue 5': {
    action: editedPage(page => {
      page.metadata = { ...page.metadata, continue: 5 };
    }),
    applied: false,
    listsOnly: true,
    incomplete: true,
  },
  'continue null': {
    action: editedPage(page => {
      page.metadata = { ...page.metadata, continue: null };
    }),
    applied: false,
    listsOnly: true,
    incomplete: true,
  },
  // A real apiserver always sends the list metadata, with no "continue" on the last page.
  'no list metadata': {
    action: editedPage(page => {
      delete page.metadata;
    }),
    applied: false,
    listsOnly: true,
    incomplete: true,
  },
  // Applied, then acknowledged with a success status whose body cannot be read: there is no
  // failing upstream status to report.
  '200 not json': {
    action: { respondAfterForward: { status: 200, body: 'not json' } },
    applied: true,
    patchesOnly: true,
  },
  '200 no metadata': {
    action: {
      respondAfterForward: {
        status: 200,
        body: JSON.stringify({ kind: 'Deployment', apiVersion: 'apps/v1' }),
      },
    },
    applied: true,
    patchesOnly: true,
  },
};
const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** [request, fault] */
type Case = [string, FaultName];
const CASES: Case[] = STEPS.flatMap(step =>
  FAULT_NAMES.filter(
    f =>
      (!FAULTS[f].patchesOnly || step.startsWith('PATCH ')) &&
      (!FAULTS[f].listsOnly || step.startsWith('LIST ')),
  ).map((f): Case => [step, f]),
);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a failed request is classified as, per the spec's codes. */
function classified(fault: FaultName, step: 'list' | 'patch') {
  const f = FAULTS[fault];
  if (f.incomplete)
    return {
      code: 'incomplete_list',
      message: INCOMPLETE_LIST,
      httpStatus: 503,
    };
  if (f.httpStatus === 429)
    return { code: 'rate_limited', message: RATE_LIMITED, httpStatus: 429 };
  if (f.httpStatus !== undefined)
    return { code: 'unavailable', message: UNAVAILABLE, httpStatus: 500 };
  // No usable answer: a patch may have taken effect, a list is simply unavailable.
  return step === 'patch'
    ? { code: 'unconfirmed', message: UNCONFIRMED }
    : { code: 'unavailable', message: UNAVAILABLE };
}

interface Expected {
  status: number;
  body: Record<string, unknown>;
  /** Consumers whose pod template the run patched (requested, or applied without an answer). */
  patched: Ref[];
  /** The PATCH requests that the run makes. */
  patches: Ref[];
}

/** The documented answer of a restart whose request `step` failed with `fault`. */
function expectedOutcome(step: string, fault: FaultName): Expected {
  const all = CONSUMERS.map(refOf);
  if (step === 'GET secret' || step === 'PROVE secret') {
    // A preflight failure: the ordinary error envelope, and no workload request at all.
    return {
      status: FAULTS[fault].httpStatus === 429 ? 429 : 503,
      body: {
        error: FAULTS[fault].httpStatus === 429 ? RATE_LIMITED : UNAVAILABLE,
      },
      patched: [],
      patches: [],
    };
  }
  const listed = /^LIST (\w+)/.exec(step);
  if (listed) {
    // A failed inventory (any page of it) patches nothing of its kind; the others proceed.
    const kind = listed[1] as WorkloadKind;
    const requested = all.filter(r => r.kind !== kind);
    return {
      status: 207,
      body: {
        status: 'partial',
        matched: requested.length,
        requested,
        failures: [],
        discoveryFailures: [{ kind, ...classified(fault, 'list') }],
        message: `Rollout requested for ${requested.length} of ${plural(
          requested.length,
          'matched workload',
        )}. Discovery failed for 1 workload kind.`,
        note: NOTE,
      },
      patched: requested,
      patches: requested,
    };
  }
  const target = all.find(r => step === `PATCH ${keyOf(r)}`)!;
  const requested = all.filter(r => r !== target);
  return {
    status: 207,
    body: {
      status: 'partial',
      matched: all.length,
      requested,
      failures: [{ ...target, ...classified(fault, 'patch') }],
      discoveryFailures: [],
      message: `Rollout requested for ${requested.length} of ${all.length} matched workloads. 1 patch request failed.`,
      note: NOTE,
    },
    // Only acknowledged patches are requested; one applied before its answer was lost is in the
    // cluster all the same.
    patched: FAULTS[fault].applied ? all : requested,
    patches: all,
  };
}

/** The reads a run makes: none after a failed gate, no second page after a failed first. */
function expectedReads(step: string): string[] {
  if (step === 'GET secret') return [step];
  if (step === 'PROVE secret') return ['GET secret', step];
  return READ_STEPS.filter(
    s => step !== 'LIST Deployment page 1' || s !== 'LIST Deployment page 2',
  );
}

/** The answer of a restart that every consumer acknowledged. */
const REQUESTED_ALL = {
  status: 'requested',
  matched: CONSUMERS.length,
  requested: CONSUMERS.map(refOf).sort(byKey),
  failures: [],
  discoveryFailures: [],
  message: `Rollout requested for ${CONSUMERS.length} of ${CONSUMERS.length} matched workloads.`,
  note: NOTE,
};

/** A restart body with its arrays in a fixed order (the spec gives none). */
function normalized(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const key of ['requested', 'failures', 'discoveryFailures']) {
    if (Array.isArray(out[key]))
      out[key] = [...(out[key] as Ref[])].sort(byKey);
  }
  return out;
}

interface ListedWorkload {
  metadata: { name: string; resourceVersion: string };
  spec: {
    template: {
      metadata?: { annotations?: Record<string, string> };
    };
  };
}

interface StoredWorkload {
  resourceVersion: string;
  restartedAt?: string;
  /** The spec without the restart annotation, as JSON. */
  rest: string;
}

/** The workloads and the Secret as the cluster holds them. */
interface ClusterView {
  workloads: Map<string, StoredWorkload>;
  secret: { resourceVersion: string; data: unknown };
}

/** A namespace with the consumers, the bystander and the fillers, and a backend behind a proxy. */
interface Lane {
  ns: { readonly name: string };
  proxy: FaultProxy;
  krypton: KryptonTestBackend;
}

interface Observed {
  step: string;
  fault: FaultName;
  status: number;
  result: string;
  codes: string;
  ms: number;
}

describe('restart-consumers under injected Kubernetes faults', () => {
  const namespaces = Array.from({ length: LANES }, () => useTestNamespace());
  const admin = new ClusterAdmin();
  /** The lane of the test that runs alone; it is also the pool's first lane. */
  let first: Lane;
  // Kept apart from the lanes, so that afterAll also ends what a lane that failed to start began.
  const proxies: FaultProxy[] = [];
  const backends: KryptonTestBackend[] = [];
  let pool: FixturePool<Lane>;
  const observed: Observed[] = [];
  const started = Date.now();

  const restart = ({ krypton, ns }: Lane) =>
    request(krypton.server)
      .post(
        `/api/krypton/namespaces/${ns.name}/secrets/${SECRET}/restart-consumers`,
      )
      .set('Authorization', as('root'));

  /** Names a recorded request as a step. */
  function classify({ ns }: Lane, r: RecordedRequest): string {
    if (r.path === `/api/v1/namespaces/${ns.name}/secrets/${SECRET}`)
      return `${r.method} secret`;
    if (
      r.method === 'PUT' &&
      r.path === `/api/v1/namespaces/${ns.name}/secrets/${SECRET}?dryRun=All`
    )
      return 'PROVE secret';
    for (const kind of KINDS) {
      const collection = workloadPath(ns.name, kind);
      if (r.method === 'GET' && r.path.startsWith(`${collection}?`)) {
        const query = new URL(r.path, 'http://x').searchParams;
        if (kind !== 'Deployment') return `LIST ${kind}`;
        return `LIST ${kind} page ${query.has('continue') ? 2 : 1}`;
      }
      if (r.path.startsWith(`${collection}/`))
        return `${r.method} ${kind}/${r.path.slice(collection.length + 1)}`;
    }
    return `${r.method} ${r.path}`;
  }

  /** A rule that hits exactly this step's request. */
  function matcher(
    { ns }: Lane,
    step: string,
  ): Pick<FaultRule, 'method' | 'path'> {
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (step === 'PROVE secret') {
      return {
        method: 'PUT',
        path: new RegExp(
          `^${esc(
            `/api/v1/namespaces/${ns.name}/secrets/${SECRET}`,
          )}\\?dryRun=All$`,
        ),
      };
    }
    if (step === 'GET secret') {
      return {
        method: 'GET',
        path: new RegExp(
          `^${esc(`/api/v1/namespaces/${ns.name}/secrets/${SECRET}`)}$`,
        ),
      };
    }
    const list = /^LIST (\w+)(?: page ([12]))?$/.exec(step);
    if (list) {
      const collection = esc(workloadPath(ns.name, list[1] as WorkloadKind));
      const page = list[2];
      let query = '';
      if (page === '1') query = '(?!.*[?&]continue=)';
      else if (page === '2') query = '(?=.*[?&]continue=)';
      return { method: 'GET', path: new RegExp(`^${collection}\\?${query}`) };
    }
    const [, kind, name] = /^PATCH (\w+)\/(.+)$/.exec(step)!;
    return {
      method: 'PATCH',
      path: new RegExp(
        `^${esc(workloadPath(ns.name, kind as WorkloadKind, name))}$`,
      ),
    };
  }

  async function view({ ns }: Lane): Promise<ClusterView> {
    const workloads = new Map<string, StoredWorkload>();
    for (const kind of KINDS) {
      const res = await admin.request({
        method: 'GET',
        path: workloadPath(ns.name, kind),
        query: { limit: '1000' },
      });
      expect(res.status).toBe(200);
      const items = (res.body as { items: ListedWorkload[] }).items;
      for (const w of items) {
        const spec = JSON.parse(JSON.stringify(w.spec));
        const annotations = spec.template.metadata?.annotations ?? {};
        const restartedAt: string | undefined = annotations[RESTARTED_AT];
        delete annotations[RESTARTED_AT];
        if (spec.template.metadata && Object.keys(annotations).length === 0)
          delete spec.template.metadata.annotations;
        workloads.set(`${kind}/${w.metadata.name}`, {
          resourceVersion: w.metadata.resourceVersion,
          restartedAt,
          rest: JSON.stringify(spec),
        });
      }
    }
    const secret = await admin.secret(ns.name, SECRET);
    return {
      workloads,
      secret: {
        resourceVersion: secret.metadata.resourceVersion!,
        data: secret.data,
      },
    };
  }

  /**
   * Compares two views: exactly the `patched` consumers have a new restart annotation, all with
   * one timestamp, and nothing else of any workload or the Secret changed.
   */
  function expectPatched(
    before: ClusterView,
    after: ClusterView,
    patched: Ref[],
  ) {
    expect([...after.workloads.keys()].sort()).toEqual(
      [...before.workloads.keys()].sort(),
    );
    const keys = [...before.workloads.keys()];
    const was = (key: string) => before.workloads.get(key)!;
    const now = (key: string) => after.workloads.get(key)!;
    const restamped = keys.filter(
      k => now(k).restartedAt !== was(k).restartedAt,
    );
    expect(restamped.sort()).toEqual(patched.map(r => keyOf(r)).sort());
    // One restart, one timestamp.
    const stamps = new Set(restamped.map(k => now(k).restartedAt ?? 'removed'));
    expect([...stamps].map(at => Number.isNaN(Date.parse(at)))).toEqual(
      patched.length > 0 ? [false] : [],
    );
    // The pod template's restart annotation is the only thing a restart may change, and a
    // workload it did not restart is not written at all.
    expect(keys.filter(k => now(k).rest !== was(k).rest)).toEqual([]);
    expect(
      keys.filter(
        k =>
          !restamped.includes(k) &&
          now(k).resourceVersion !== was(k).resourceVersion,
      ),
    ).toEqual([]);
    expect(after.secret).toEqual(before.secret);
  }

  /** Starts a lane on its namespace and waits until its backend can read the Secret there. */
  async function startLane(ns: { readonly name: string }): Promise<Lane> {
    const state = testClusterState();
    const proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    proxies.push(proxy);
    const krypton = await startKryptonBackend(
      {
        restart: { enabled: true },
        kubernetes: { identity: 'hybrid', requestTimeoutMs: DEADLINE_MS },
      },
      { clusterUrl: proxy.url },
    );
    backends.push(krypton);
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: SECRET,
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/owners': 'user:default/root' },
      },
      data: { password: 'cA==' },
    });
    for (const [kind, name, spec] of [...CONSUMERS, BYSTANDER]) {
      await createWorkload(admin, ns.name, kind, name, spec);
    }
    for (let i = 0; i < FILLERS.length; i += 10) {
      await Promise.all(
        FILLERS.slice(i, i + 10).map(name =>
          createWorkload(admin, ns.name, 'Deployment', name, {}),
        ),
      );
    }
    const ready = await eventually(
      () =>
        request(krypton.server)
          .get(`/api/krypton/namespaces/${ns.name}/secrets/${SECRET}`)
          .set('Authorization', as('root')),
      r => r.status === 200,
    );
    if (ready.status !== 200)
      throw new Error(`the Secret is not readable yet: ${ready.status}`);
    return { ns, proxy, krypton };
  }

  beforeAll(async () => {
    const lanes = await Promise.all(namespaces.map(startLane));
    first = lanes[0];
    pool = new FixturePool(lanes);
  });
  afterEach(() => proxies.forEach(proxy => proxy.clear()));
  afterAll(async () => {
    const width = Math.max(...STEPS.map(s => s.length));
    // Concurrent cases finish in any order; the table keeps the matrix's.
    const order = (o: Observed) =>
      CASES.findIndex(([step, fault]) => step === o.step && fault === o.fault);
    observed.sort((a, b) => order(a) - order(b));
    const rows = observed.map(
      o =>
        `| ${o.step.padEnd(width)} | ${o.fault.padEnd(19)} | ${o.status} | ${
          o.result
        } | ${o.codes} | ${o.ms} |`,
    );
    process.stdout.write(
      [
        '',
        `[restartFaults] ${observed.length} fault cases in ${
          Date.now() - started
        } ms (Kubernetes request deadline ${DEADLINE_MS} ms)`,
        `| ${'request'.padEnd(width)} | ${'fault'.padEnd(
          19,
        )} | HTTP | result | failure codes (httpStatus) | ms |`,
        '|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
    await Promise.all(backends.map(backend => backend.stop()));
    await Promise.all(proxies.map(proxy => proxy.close()));
    admin.close();
  });

  it('records the Kubernetes requests of a clean restart', async () => {
    const before = await view(first);
    first.proxy.resetRecordings();
    const res = await restart(first);
    const recorded = [...first.proxy.requests];
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(normalized(res.body)).toEqual(REQUESTED_ALL);
    const steps = recorded.map(r => classify(first, r));
    process.stdout.write(
      [
        '',
        `[restartFaults] a clean restart (${CONSUMERS.length} consumers, ${
          FILLERS.length + 3
        } Deployments):`,
        ...recorded.map(
          (r, j) =>
            `  ${j + 1}. ${steps[j].padEnd(24)} ${r.method} ${r.path
              .split(first.ns.name)
              .join('<ns>')
              .replace(/continue=[^&]+/, 'continue=<token>')}`,
        ),
        '',
      ].join('\n'),
    );
    // Lists run side by side and patches four at a time, so only their sets are fixed: the gate
    // first, then the proof of the user's right, every inventory settled before the first patch,
    // page 2 after page 1.
    expect(steps[0]).toBe('GET secret');
    expect(steps[1]).toBe('PROVE secret');
    expect([...steps].sort()).toEqual([...STEPS].sort());
    const firstPatch = steps.findIndex(s => s.startsWith('PATCH '));
    expect(steps.slice(firstPatch).every(s => s.startsWith('PATCH '))).toBe(
      true,
    );
    expect(steps.indexOf('LIST Deployment page 1')).toBeLessThan(
      steps.indexOf('LIST Deployment page 2'),
    );
    // Each step's rule hits its own request and no other.
    recorded.forEach((r, j) => {
      const hits = STEPS.filter(s => {
        const m = matcher(first, s);
        return m.method === r.method && m.path!.test(r.path);
      });
      expect(hits).toEqual([steps[j]]);
    });
    expectPatched(before, await view(first), CONSUMERS.map(refOf));
  });

  // Each case holds a lane of its own until it ends, and leaves no rule behind on it.
  it.concurrent.each(CASES)('%s fails with %s', (step, fault) =>
    pool.use(async lane => {
      try {
        const { proxy, krypton } = lane;
        const before = await view(lane);
        const rule: FaultRule = {
          ...matcher(lane, step),
          action: FAULTS[fault].action,
          times: 1,
        };
        proxy.inject(rule);
        proxy.resetRecordings();
        const logged = krypton.sink.lines.length;
        const began = Date.now();
        const res = await restart(lane);
        const ms = Date.now() - began;
        const made = proxy.requests.map(r => classify(lane, r));
        proxy.clear();
        const want = expectedOutcome(step, fault);

        expect(rule.times).toBe(0);
        // The documented status and body. A request without an answer is logged with its reason,
        // checked in the same assertion so that an unexpected failure shows why it happened.
        const unanswered = FAULTS[fault].unanswered;
        expect(res.headers['cache-control']).toBe('no-store');
        expect({
          status: res.status,
          body: normalized(res.body),
          unanswered: krypton.sink.lines
            .slice(logged)
            .filter(line => line.includes(' answered nothing '))
            .map(line => /\(([A-Za-z]+)\)/.exec(line)?.[1]),
        }).toEqual({
          status: want.status,
          body: normalized(want.body),
          unanswered: unanswered ? [unanswered] : [],
        });
        // A timeout ends the run at the deadline: not before, and not at the 30 s default.
        expect(ms).toBeGreaterThanOrEqual(
          unanswered === 'Timeout' ? DEADLINE_MS : 0,
        );
        expect(ms).toBeLessThan(5 * DEADLINE_MS);
        // Every patch attempted once, none of a kind whose inventory failed, none after a failed
        // gate; and no second list of anything.
        expect(made.filter(s => s.startsWith('PATCH ')).sort()).toEqual(
          want.patches.map(r => `PATCH ${keyOf(r)}`).sort(),
        );
        expect(made.filter(s => !s.startsWith('PATCH ')).sort()).toEqual(
          expectedReads(step).sort(),
        );

        // Patched exactly as reported (plus one applied without an answer), nothing else changed.
        const after = await view(lane);
        expectPatched(before, after, want.patched);

        // A retry without faults converges: every match requested, each one patched again.
        const retry = await restart(lane);
        expect({ status: retry.status, body: normalized(retry.body) }).toEqual({
          status: 200,
          body: REQUESTED_ALL,
        });
        expectPatched(after, await view(lane), CONSUMERS.map(refOf));

        const body = res.body as {
          status?: string;
          failures?: Array<{
            kind: string;
            name: string;
            code: string;
            httpStatus?: number;
          }>;
          discoveryFailures?: Array<{
            kind: string;
            code: string;
            httpStatus?: number;
          }>;
          error?: string;
        };
        const codes = [
          ...(body.failures ?? []).map(
            f =>
              `${f.kind}/${f.name}: ${f.code}${
                f.httpStatus ? ` (${f.httpStatus})` : ''
              }`,
          ),
          ...(body.discoveryFailures ?? []).map(
            f =>
              `discovery ${f.kind}: ${f.code}${
                f.httpStatus ? ` (${f.httpStatus})` : ''
              }`,
          ),
        ];
        observed.push({
          step,
          fault,
          status: res.status,
          result: body.status ?? `preflight: ${body.error}`,
          codes: codes.join('; '),
          ms,
        });
      } finally {
        lane.proxy.clear();
      }
    }),
  );
});
