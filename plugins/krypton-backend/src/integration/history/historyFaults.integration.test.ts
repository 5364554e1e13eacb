/*
 * Fault injection over the history-backed writes. Each Kubernetes request that update, restore
 * and delete make is failed in turn at the fault proxy: an upstream 500, a 429, a connection reset
 * before forwarding, a reset after the apiserver applied the request, and a timeout before and
 * after the apiserver applied it (the proxy holds the request, or the apiserver's answer, past
 * the backend's Kubernetes request deadline, which these backends set to DEADLINE_MS). Each run
 * must answer its documented status, lose no state (every earlier state is live or in a valid
 * snapshot, unless retention or delete cleanup removed it on purpose), and a reload plus retry
 * must converge on the intended state.
 *
 * A timeout is a request without an answer, like a reset: the backend cannot know whether it took
 * effect, so both answer the same (503 unavailable, or the history messages, never 429), and a
 * snapshot delete without an answer is confirmed by reading the snapshot again. The two variants
 * differ only in what the cluster holds afterwards.
 *
 * The cases run a few at a time, each on a lane of its own (a proxy and the two backends behind
 * it), so that most of the deadlines the timeouts wait out overlap; a lane serves one case at a
 * time, and every case has Secrets of its own.
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
} from '@krypton/kube-testenv';
import {
  kryptonKeys,
  messages,
  NativeSecret,
  readSnapshotRecord,
} from '@krypton/core';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';
import { b64, hash32 } from '../../__testUtils__/history';
import { FixturePool } from '../../__testUtils__/pool';

const KEYS = kryptonKeys('krypton.io');
/** The history limit of the second backend, for the runs that prune. */
const LIMIT = 2;
/**
 * The backends' deadline of one Kubernetes request (krypton.kubernetes.requestTimeoutMs). Long
 * enough that an unfaulted request on a loaded CI machine never reaches it (600 ms once did, in
 * the restart fault test).
 */
const DEADLINE_MS = 1500;
/** Fault cases in flight at once, each on a lane of its own. */
const LANES = 4;

type OpName =
  | 'update'
  | 'update at limit'
  | 'restore'
  | 'restore at limit'
  | 'delete';
type FaultName =
  | 'respond 500'
  | 'respond 429'
  | 'reset'
  | 'resetAfterForward'
  | 'timeout'
  | 'timeoutAfterForward';

/**
 * One operation of the matrix. Steps name the Kubernetes requests it makes, in order:
 * "<METHOD> live" (the live Secret), "POST snapshot" (create in the collection),
 * "GET history" (the metadata-only list of the live UID's snapshots) and
 * "<METHOD> snapshot vN" (one snapshot by name).
 */
interface OpSpec {
  kind: 'update' | 'restore' | 'delete';
  /** Prefix of the Secret names of its cases. */
  short: string;
  /** Runs on the backend with historyLimit LIMIT instead of the default (20). */
  limited: boolean;
  /** States the Secret goes through first (through the API): the last is live, the rest history. */
  states: number;
  /** The version a restore goes back to. */
  target?: number;
  steps: string[];
  /** Snapshot versions once the operation succeeded. */
  finalSnapshots: number[];
}

const OPS: Record<OpName, OpSpec> = {
  update: {
    kind: 'update',
    short: 'upd',
    limited: false,
    states: 2,
    steps: ['GET live', 'POST snapshot', 'GET history', 'PUT live'],
    finalSnapshots: [1, 2],
  },
  // v1..v3 are history and v4 is live; saving v4 leaves four snapshots for a limit of two.
  'update at limit': {
    kind: 'update',
    short: 'upl',
    limited: true,
    states: 4,
    steps: [
      'GET live',
      'POST snapshot',
      'GET history',
      'DELETE snapshot v1',
      'DELETE snapshot v2',
      'PUT live',
    ],
    finalSnapshots: [3, 4],
  },
  restore: {
    kind: 'restore',
    short: 'rst',
    limited: false,
    states: 2,
    target: 1,
    steps: [
      'GET live',
      'GET snapshot v1',
      'POST snapshot',
      'GET history',
      'PUT live',
    ],
    finalSnapshots: [1, 2],
  },
  // The target is the newest snapshot, so retention (which removes v1) never takes it; the case
  // where it does is the separate test at the end.
  'restore at limit': {
    kind: 'restore',
    short: 'rsl',
    limited: true,
    states: 3,
    target: 2,
    steps: [
      'GET live',
      'GET snapshot v2',
      'POST snapshot',
      'GET history',
      'DELETE snapshot v1',
      'PUT live',
    ],
    finalSnapshots: [2, 3],
  },
  delete: {
    kind: 'delete',
    short: 'del',
    limited: false,
    states: 3,
    steps: [
      'GET live',
      'GET history',
      'GET live',
      'DELETE snapshot v1',
      'GET live',
      'DELETE snapshot v2',
      'GET history',
      'GET live',
      // The mark that tells the recorder this delete cleaned history (deleteMarker.ts).
      'PATCH live',
      'DELETE live',
    ],
    finalSnapshots: [],
  },
};
const OP_NAMES = Object.keys(OPS) as OpName[];

const status = (code: number, reason: string) =>
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason,
    code,
  });

interface Fault {
  short: string;
  action: FaultAction;
  /** The backend got no answer: its gateway logs the request with this reason. */
  unanswered?: 'Network' | 'Timeout';
  /** The apiserver applied the request before the fault. */
  applied: boolean;
  /**
   * Only for writes: for a read, an answer held after forwarding leaves the same cluster and the
   * same backend view as a request held before it, and each costs a deadline.
   */
  writesOnly?: true;
}

const FAULTS: Record<FaultName, Fault> = {
  'respond 500': {
    short: '500',
    action: { respond: { status: 500, body: status(500, 'InternalError') } },
    applied: false,
  },
  'respond 429': {
    short: '429',
    action: { respond: { status: 429, body: status(429, 'TooManyRequests') } },
    applied: false,
  },
  reset: {
    short: 'rst',
    action: { reset: true },
    unanswered: 'Network',
    applied: false,
  },
  resetAfterForward: {
    short: 'raf',
    action: { resetAfterForward: true },
    unanswered: 'Network',
    applied: true,
  },
  // Held at the proxy, never forwarded, until the backend gives up at its deadline.
  timeout: {
    short: 'tmo',
    action: { hold: true },
    unanswered: 'Timeout',
    applied: false,
  },
  // Applied at once; the answer would come long after the deadline (a backend without one would
  // get it, and fail the checks below rather than hang).
  timeoutAfterForward: {
    short: 'taf',
    action: { delayAfterForwardMs: 5 * DEADLINE_MS },
    unanswered: 'Timeout',
    applied: true,
    writesOnly: true,
  },
};
const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** [operation, request number (1-based), requests in the sequence, request, fault] */
type Case = [OpName, number, number, string, FaultName];
const CASES: Case[] = OP_NAMES.flatMap(op =>
  OPS[op].steps.flatMap((step, i) =>
    FAULT_NAMES.filter(
      fault => !FAULTS[fault].writesOnly || !step.startsWith('GET '),
    ).map((fault): Case => [op, i + 1, OPS[op].steps.length, step, fault]),
  ),
);

const SNAPSHOT_DELETE = /^DELETE snapshot v(\d+)$/;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const byNumber = (a: number, b: number) => a - b;
const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** A state the live Secret had: its native data and the resourceVersion it had then. */
interface State {
  data: Record<string, string>;
  rv: string;
}

interface Fixture {
  name: string;
  uid: string;
  hash: string;
  /** states[v - 1] is version v. */
  states: State[];
}

const textOf = (fx: Fixture, version: number) => `${fx.name}-s${version}`;

/** The text value that a successful run leaves live. */
function intendedText(spec: OpSpec, fx: Fixture): string {
  return spec.kind === 'restore'
    ? textOf(fx, spec.target!)
    : textOf(fx, spec.states + 1);
}

/**
 * The requests a run that fails at stepIdx makes: up to the failing one. A snapshot delete that
 * got no answer (a reset or a timeout) is confirmed by reading the snapshot again: when it was
 * never forwarded it is still there and cleanup stops; when it was applied it is gone and the run
 * carries on.
 */
function requestsUpTo(
  steps: string[],
  stepIdx: number,
  fault: FaultName,
): string[] {
  const step = steps[stepIdx];
  const upTo = steps.slice(0, stepIdx + 1);
  if (!SNAPSHOT_DELETE.test(step) || !FAULTS[fault].unanswered) return upTo;
  const confirm = step.replace('DELETE', 'GET');
  return FAULTS[fault].applied
    ? [...upTo, confirm, ...steps.slice(stepIdx + 1)]
    : [...upTo, confirm];
}

/** Whether a run still succeeds: a snapshot delete that landed without an answer is confirmed. */
const succeedsAnyway = (step: string, fault: FaultName) =>
  SNAPSHOT_DELETE.test(step) && FAULTS[fault].applied;

/** What a sequence of requests leaves behind, the one at skipIdx not having taken effect. */
function effects(
  spec: OpSpec,
  made: string[],
  skipIdx: number,
): { live: 'old' | 'new' | 'gone'; snapshots: number[]; marked?: boolean } {
  const snapshots = new Set(range(1, spec.states - 1));
  let live: 'old' | 'new' | 'gone' = 'old';
  let marked = false;
  made.forEach((step, j) => {
    if (j === skipIdx) return;
    const deleted = SNAPSHOT_DELETE.exec(step);
    if (deleted) snapshots.delete(Number(deleted[1]));
    if (step === 'POST snapshot') snapshots.add(spec.states);
    if (step === 'PUT live') live = 'new';
    if (step === 'DELETE live') live = 'gone';
    if (step === 'PATCH live') marked = true;
  });
  return { live, snapshots: [...snapshots].sort(byNumber), marked };
}

/** The documented answer of a run whose request at stepIdx failed with `fault`. */
function expectedFailure(
  spec: OpSpec,
  stepIdx: number,
  fault: FaultName,
): { status: number; body: unknown } {
  const step = spec.steps[stepIdx];
  const deletesBefore = spec.steps
    .slice(0, stepIdx)
    .filter(s => SNAPSHOT_DELETE.test(s)).length;
  if (SNAPSHOT_DELETE.test(step)) {
    // Retention and delete cleanup report a failed snapshot delete, a 429 included, as a 503
    // with counts, and stop there: a newer snapshot never goes before an older one.
    const what =
      spec.kind === 'delete'
        ? 'the Secret was not deleted'
        : 'the Secret was not changed';
    return {
      status: 503,
      body: {
        error: `History cleanup did not finish (${deletesBefore} confirmed absent, 0 pending, 1 failed), so ${what}. Resolve pending or failed snapshots and try again.`,
        history: { confirmedAbsent: deletesBefore, pending: 0, failed: 1 },
      },
    };
  }
  // A delete that fails after cleanup began says how far cleanup got.
  const progress =
    spec.kind === 'delete' && deletesBefore > 0
      ? {
          history: { confirmedAbsent: deletesBefore, pending: 0, failed: 0 },
        }
      : {};
  if (fault === 'respond 429')
    return { status: 429, body: { error: messages.rateLimited, ...progress } };
  let error: string = messages.unavailable;
  if (step === 'POST snapshot') error = messages.historyUnavailable;
  else if (!step.endsWith(' live')) error = messages.historyUnreadable;
  return { status: 503, body: { error, ...progress } };
}

/** A fault proxy and the two backends behind it: the default history limit, and LIMIT. */
interface Lane {
  proxy: FaultProxy;
  main: KryptonTestBackend;
  limited: KryptonTestBackend;
}

interface Observed {
  op: OpName;
  index: number;
  total: number;
  step: string;
  fault: FaultName;
  status: number;
  history?: unknown;
  /** How long the faulted run took. */
  ms: number;
  live: string;
  retry: string;
}

describe('history writes under injected Kubernetes faults', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  /** The lane of the tests that run one at a time; it is also the pool's first lane. */
  let first: Lane;
  // Kept apart from the lanes, so that afterAll also ends what a lane that failed to start began.
  const proxies: FaultProxy[] = [];
  const backends: KryptonTestBackend[] = [];
  let pool: FixturePool<Lane>;
  const fixtures = new Map<string, Fixture>();
  const observed: Observed[] = [];
  const started = Date.now();

  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const apiPath = () => `/api/v1/namespaces/${ns.name}/secrets`;
  const backendOf = (lane: Lane, spec: OpSpec) =>
    spec.limited ? lane.limited : lane.main;
  const get = (lane: Lane, name: string) =>
    request(lane.main.server)
      .get(`${base()}/${name}`)
      .set('Authorization', as('root'));
  const put = (
    server: KryptonTestBackend['server'],
    name: string,
    body: Record<string, unknown>,
  ) =>
    request(server)
      .put(`${base()}/${name}`)
      .set('Authorization', as('root'))
      .send(body);

  /** A fresh Secret that went through `count` states through the API (history v1..v<count-1>). */
  async function setup(
    lane: Lane,
    name: string,
    count: number,
  ): Promise<Fixture> {
    const created = await request(lane.main.server)
      .post(base())
      .set('Authorization', as('root'))
      .send({ name, data: { k: `${name}-s1` } });
    expect(created.status).toBe(201);
    const fx: Fixture = {
      name,
      uid: created.body.uid,
      hash: hash32(created.body.uid),
      states: [
        { data: { k: b64(`${name}-s1`) }, rv: created.body.resourceVersion },
      ],
    };
    for (let v = 2; v <= count; v++) {
      const res = await put(lane.main.server, name, {
        resourceVersion: fx.states[v - 2].rv,
        data: { k: textOf(fx, v) },
      });
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(v);
      fx.states.push({
        data: { k: b64(textOf(fx, v)) },
        rv: res.body.resourceVersion,
      });
    }
    fixtures.set(fx.hash, fx);
    return fx;
  }

  function run(lane: Lane, spec: OpSpec, fx: Fixture, resourceVersion: string) {
    const server = backendOf(lane, spec).server;
    if (spec.kind === 'update') {
      return put(server, fx.name, {
        resourceVersion,
        data: { k: intendedText(spec, fx) },
      });
    }
    if (spec.kind === 'restore') {
      return request(server)
        .post(`${base()}/${fx.name}/restore`)
        .set('Authorization', as('root'))
        .send({ version: spec.target, resourceVersion });
    }
    return request(server)
      .delete(
        `${base()}/${fx.name}?resourceVersion=${encodeURIComponent(
          resourceVersion,
        )}`,
      )
      .set('Authorization', as('root'));
  }

  /** Names a recorded request as a step of the fixture's sequence. */
  function classify(r: RecordedRequest, fx: Fixture): string {
    const collection = apiPath();
    if (r.path === `${collection}/${fx.name}`) return `${r.method} live`;
    if (r.method === 'POST' && r.path === collection) return 'POST snapshot';
    const snapshot = new RegExp(
      `^${escape(collection)}/krypton-h-${fx.hash}-v([1-9][0-9]*)$`,
    ).exec(r.path);
    if (snapshot) return `${r.method} snapshot v${snapshot[1]}`;
    if (r.path.startsWith(`${collection}?`)) {
      const selector = new URL(r.path, 'http://x').searchParams.get(
        'labelSelector',
      );
      if (
        selector ===
        `krypton.io/managed-by=krypton,krypton.io/kind=history,krypton.io/source-uid=${fx.hash}`
      ) {
        return `${r.method} history`;
      }
    }
    return `${r.method} ${r.path}`;
  }

  /** The method and path of a fault rule that hits exactly this step of the fixture. */
  function matcher(
    step: string,
    fx: Fixture,
  ): Pick<FaultRule, 'method' | 'path'> {
    const [method, target, version] = step.split(' ');
    const collection = escape(apiPath());
    let path: RegExp;
    if (target === 'live') path = new RegExp(`^${collection}/${fx.name}$`);
    else if (target === 'history') {
      path = new RegExp(
        `^${collection}\\?(?:.*&)?labelSelector=[^&]*source-uid%3D${fx.hash}(?:&|$)`,
      );
    } else if (version) {
      path = new RegExp(`^${collection}/krypton-h-${fx.hash}-${version}$`);
    } else path = new RegExp(`^${collection}$`);
    return { method, path };
  }

  /** Checks one snapshot fully and returns its version. */
  async function checkSnapshot(s: NativeSecret, fx: Fixture): Promise<number> {
    const record = await readSnapshotRecord(s, KEYS);
    expect(record).toBeDefined();
    const version = record!.version;
    const state = fx.states[version - 1];
    expect({
      name: s.metadata.name,
      sourceUid: record!.sourceUid,
      historyOf: record!.historyOf,
      sourceResourceVersion: record!.sourceResourceVersion,
      immutable: s.immutable,
      type: s.type,
      data: s.data,
      finalizers: s.metadata.finalizers,
      deletionTimestamp: s.metadata.deletionTimestamp,
    }).toEqual({
      name: `krypton-h-${fx.hash}-v${version}`,
      sourceUid: fx.uid,
      historyOf: fx.name,
      sourceResourceVersion: state?.rv,
      immutable: true,
      type: 'Opaque',
      data: state?.data,
      finalizers: undefined,
      deletionTimestamp: undefined,
    });
    return version;
  }

  /**
   * Reads the live Secret and the fixture's snapshots with the admin client and checks them
   * against `want`; then checks that no state was lost: each version the Secret had is live or in
   * a valid snapshot, unless retention/cleanup (a snapshot delete of the sequence) or the
   * intended delete removed it.
   */
  async function expectStored(
    spec: OpSpec,
    fx: Fixture,
    want: {
      live: 'old' | 'new' | 'gone';
      snapshots: number[];
      /** The delete's mark for the recorder landed: a metadata-only change of the live object. */
      marked?: boolean;
    },
  ): Promise<void> {
    const c = spec.states;
    const res = await admin.getSecret(ns.name, fx.name);
    if (want.live === 'gone') {
      expect(res.status).toBe(404);
    } else {
      expect(res.status).toBe(200);
      const live = res.body as NativeSecret;
      const old = want.live === 'old';
      expect({
        uid: live.metadata.uid,
        version: live.metadata.annotations?.[KEYS.version],
        data: live.data,
        deletionTimestamp: live.metadata.deletionTimestamp,
      }).toEqual({
        uid: fx.uid,
        version: String(old ? c : c + 1),
        data: old ? fx.states[c - 1].data : { k: b64(intendedText(spec, fx)) },
        deletionTimestamp: undefined,
      });
      // A run that fails before its live write leaves the live object untouched, but for the
      // delete's mark when it landed.
      if (old && want.marked) {
        expect(
          live.metadata.annotations?.['krypton.io/history-cleaned-at'],
        ).toMatch(/^\d{4}-\d\d-\d\dT/);
      } else if (old) {
        expect(live.metadata.resourceVersion).toBe(fx.states[c - 1].rv);
      }
    }
    const snapshots = await admin.listSecrets(
      ns.name,
      `${KEYS.sourceUid}=${fx.hash}`,
    );
    const versions: number[] = [];
    for (const s of snapshots) versions.push(await checkSnapshot(s, fx));
    versions.sort(byNumber);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions).toEqual(want.snapshots);

    const removable = spec.steps.flatMap(s => {
      const m = SNAPSHOT_DELETE.exec(s);
      return m ? [Number(m[1])] : [];
    });
    const lost = range(1, c).filter(
      v =>
        !versions.includes(v) &&
        !(want.live === 'old' && v === c) &&
        !removable.includes(v) &&
        want.live !== 'gone',
    );
    expect(lost).toEqual([]);
  }

  /**
   * Reloads the Secret and repeats the operation with its fresh resourceVersion, as a client
   * would after a failure; describes what happened for the report. A delete that landed needs no
   * retry: the reload answers 404.
   */
  async function retryAfterFault(
    lane: Lane,
    spec: OpSpec,
    fx: Fixture,
    live: 'old' | 'new' | 'gone',
  ): Promise<string> {
    const reload = await get(lane, fx.name);
    if (live === 'gone') {
      expect(reload.status).toBe(404);
      return 'none (reload: 404, already deleted)';
    }
    expect(reload.status).toBe(200);
    expect(reload.body.uid).toBe(fx.uid);
    const again = await run(lane, spec, fx, reload.body.resourceVersion);
    expect(again.status).toBe(200);
    if (spec.kind === 'delete') {
      expect(again.body).toEqual({ status: 'deleted', history: 'cleaned' });
      return '200';
    }
    expect(again.body).toMatchObject({
      uid: fx.uid,
      version: spec.states + 1,
      data: { k: intendedText(spec, fx) },
    });
    if (live === 'old') return '200';
    // The data is already the intended data: the repeat is a no-op success.
    expect(again.body.resourceVersion).toBe(reload.body.resourceVersion);
    return '200 (no-op: already applied)';
  }

  beforeAll(async () => {
    const state = testClusterState();
    const identity = {
      kubernetes: {
        identity: 'serviceAccount',
        requestTimeoutMs: DEADLINE_MS,
        serviceAccountMode: { namespaces: [ns.name] },
      },
    };
    const startLane = async (): Promise<Lane> => {
      const proxy = await startFaultProxy({
        target: state.server,
        caFile: state.caFile || undefined,
      });
      proxies.push(proxy);
      const [main, limited] = await Promise.all(
        [{}, { historyLimit: LIMIT }].map(async extra => {
          const backend = await startKryptonBackend(
            { ...identity, ...extra },
            { clusterUrl: proxy.url },
          );
          backends.push(backend);
          return backend;
        }),
      );
      return { proxy, main, limited };
    };
    const ready = await Promise.all(Array.from({ length: LANES }, startLane));
    first = ready[0];
    pool = new FixturePool(ready);
  });
  afterEach(() => proxies.forEach(proxy => proxy.clear()));
  afterAll(async () => {
    // Concurrent cases finish in any order; the table keeps the matrix's.
    const order = (o: Observed) =>
      CASES.findIndex(
        c => c[0] === o.op && c[1] === o.index && c[4] === o.fault,
      );
    observed.sort((a, b) => order(a) - order(b));
    const rows = observed.map(
      o =>
        `| ${o.op} | ${o.index}/${o.total} | ${o.step} | ${o.fault} | ${
          o.status
        } | ${o.history ? JSON.stringify(o.history) : ''} | ${o.ms} | ${
          o.live
        } | ${o.retry} |`,
    );
    const tally = FAULT_NAMES.map(
      f =>
        `${f}: ${observed.filter(o => o.fault === f).length} (${[
          ...new Set(
            observed.filter(o => o.fault === f).map(o => String(o.status)),
          ),
        ].join('/')})`,
    );
    process.stdout.write(
      [
        '',
        `[historyFaults] ${observed.length} fault cases in ${
          Date.now() - started
        } ms (Kubernetes request deadline ${DEADLINE_MS} ms); per fault: ${tally.join(
          ', ',
        )}`,
        '| operation | request | step | fault | status | history | ms | live after fault | retry |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
    await Promise.all(backends.map(backend => backend.stop()));
    await Promise.all(proxies.map(proxy => proxy.close()));
    admin.close();
  });

  it.each(OP_NAMES)(
    'records the Kubernetes requests of %s without faults',
    async op => {
      const spec = OPS[op];
      const fx = await setup(first, `seq-${spec.short}`, spec.states);
      first.proxy.resetRecordings();
      const res = await run(first, spec, fx, fx.states[spec.states - 1].rv);
      const recorded = [...first.proxy.requests];
      expect(res.status).toBe(200);
      const steps = recorded.map(r => classify(r, fx));
      process.stdout.write(
        [
          '',
          `[historyFaults] ${op} (historyLimit ${spec.limited ? LIMIT : 20}, ${
            spec.states - 1
          } snapshot(s) before${
            spec.target ? `, restoring v${spec.target}` : ''
          }):`,
          ...recorded.map(
            (r, j) =>
              `  ${j + 1}. ${steps[j].padEnd(20)} ${r.method} ${r.path
                .split(ns.name)
                .join('<ns>')
                .split(fx.hash)
                .join('<uid-hash>')
                .replace(`/secrets/${fx.name}`, '/secrets/<name>')}`,
          ),
          '',
        ].join('\n'),
      );
      expect(steps).toEqual(spec.steps);
      // The rules built for each step hit that step's requests and no other request of the run.
      const distinct = [...new Set(spec.steps)];
      recorded.forEach((r, j) => {
        const hits = distinct.filter(s => {
          const m = matcher(s, fx);
          return m.method === r.method && m.path!.test(r.path);
        });
        expect(hits).toEqual([steps[j]]);
      });
      // Inventories read metadata only.
      const inventories = recorded.filter((_, j) => steps[j] === 'GET history');
      expect(inventories.map(r => r.headers.accept)).toEqual(
        inventories.map(() => [
          expect.stringContaining('as=PartialObjectMetadataList'),
        ]),
      );
      const done = effects(spec, spec.steps, -1);
      expect(done.snapshots).toEqual(spec.finalSnapshots);
      await expectStored(spec, fx, done);
    },
  );

  // Each case holds a lane of its own until it ends, and leaves no rule behind on it.
  it.concurrent.each(CASES)(
    '%s: request %i of %i (%s) fails with %s',
    (op, index, _total, step, fault) =>
      pool.use(async lane => {
        try {
          const { proxy } = lane;
          const spec = OPS[op];
          const stepIdx = index - 1;
          const fx = await setup(
            lane,
            `${spec.short}-${index}-${FAULTS[fault].short}`,
            spec.states,
          );
          const c = spec.states;

          // Only the index-th request fails: earlier requests of the same step pass through a rule
          // that is used up first (rules are tried newest first).
          const match = matcher(step, fx);
          const faultRule: FaultRule = {
            ...match,
            action: FAULTS[fault].action,
            times: 1,
          };
          proxy.inject(faultRule);
          const earlier = spec.steps.slice(0, stepIdx).filter(s => s === step);
          const passRule: FaultRule = {
            ...match,
            action: { delayMs: 0 },
            times: earlier.length,
          };
          if (earlier.length > 0) proxy.inject(passRule);
          proxy.resetRecordings();
          const sink = backendOf(lane, spec).sink;
          const logged = sink.lines.length;
          const began = Date.now();
          const res = await run(lane, spec, fx, fx.states[c - 1].rv);
          const ms = Date.now() - began;
          const made = proxy.requests.map(r => classify(r, fx));
          proxy.clear();

          // A request without an answer is logged with its reason: the deadline, or the lost
          // connection. A timeout ends the run at the deadline: not before, and not at the 30 s
          // default.
          const unanswered = FAULTS[fault].unanswered;
          expect(
            sink.lines
              .slice(logged)
              .filter(line => line.includes(' answered nothing '))
              .map(line => /\(([A-Za-z]+)\)/.exec(line)?.[1]),
          ).toEqual(unanswered ? [unanswered] : []);
          expect(ms).toBeGreaterThanOrEqual(
            unanswered === 'Timeout' ? DEADLINE_MS : 0,
          );
          expect(ms).toBeLessThan(5 * DEADLINE_MS);

          expect(faultRule.times).toBe(0);
          expect(passRule.times).toBe(0);
          const expectedMade = requestsUpTo(spec.steps, stepIdx, fault);
          expect(made).toEqual(expectedMade);

          // The documented status.
          const landed = succeedsAnyway(step, fault);
          expect(
            landed
              ? { status: res.status }
              : { status: res.status, body: res.body },
          ).toEqual(
            landed ? { status: 200 } : expectedFailure(spec, stepIdx, fault),
          );

          // Nothing lost: the live Secret is the old state, or the new one only when the final
          // write itself landed before the reset; every snapshot is valid, none is duplicated.
          const after = effects(
            spec,
            expectedMade,
            FAULTS[fault].applied ? -1 : stepIdx,
          );
          // Only the final write, applied before its answer was lost, can have landed, or the whole
          // run when only a snapshot delete lost its answer.
          expect(after.live !== 'old').toBe(
            landed ||
              (FAULTS[fault].applied && stepIdx === spec.steps.length - 1),
          );
          await expectStored(spec, fx, after);

          // A reload and retry converge.
          const retry = await retryAfterFault(lane, spec, fx, after.live);
          await expectStored(spec, fx, {
            live: spec.kind === 'delete' ? 'gone' : 'new',
            snapshots: spec.finalSnapshots,
          });
          observed.push({
            op,
            index,
            total: spec.steps.length,
            step,
            fault,
            status: res.status,
            history: res.body.history,
            ms,
            live: after.live === 'old' ? 'unchanged' : `${after.live} (landed)`,
            retry,
          });
        } finally {
          lane.proxy.clear();
        }
      }),
  );

  it('restore at the limit prunes oldest-first, its target included: a failed PUT keeps the state it rolled back from', async () => {
    // v1 and v2 are history, v3 live, limit 2: restoring v1 reads v1, saves v3 and prunes the
    // oldest, v1 itself, as any write would (spec: "pruning may already have removed older
    // history" when the replacement fails). What must survive is v3, the state rolled back from.
    const spec: OpSpec = {
      ...OPS['restore at limit'],
      short: 'rsl-target',
      target: 1,
      steps: [
        'GET live',
        'GET snapshot v1',
        'POST snapshot',
        'GET history',
        'DELETE snapshot v1',
        'PUT live',
      ],
      finalSnapshots: [2, 3],
    };
    const { proxy } = first;
    const fx = await setup(first, 'rsl-target-pruned', spec.states);
    proxy.inject({
      ...matcher('PUT live', fx),
      action: FAULTS['respond 500'].action,
      times: 1,
    });
    proxy.resetRecordings();
    const res = await run(first, spec, fx, fx.states[2].rv);
    const made = proxy.requests.map(r => classify(r, fx));
    proxy.clear();
    expect(made).toEqual(spec.steps);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: messages.unavailable });
    await expectStored(spec, fx, { live: 'old', snapshots: [2, 3] });
    const reload = await get(first, fx.name);
    const retry = await run(first, spec, fx, reload.body.resourceVersion);
    expect(retry.status).toBe(404);
    expect(retry.body).toEqual({ error: messages.versionNotFound });
    await expectStored(spec, fx, { live: 'old', snapshots: [2, 3] });
  });

  it('leaves no malformed or unaccounted snapshot anywhere in the namespace', async () => {
    const all = await admin.listSecrets(ns.name);
    const history = all.filter(
      s =>
        s.metadata.name?.startsWith('krypton-h-') ||
        s.metadata.labels?.[KEYS.kind] === 'history',
    );
    expect(history.length).toBeGreaterThan(0);
    for (const s of history) {
      const hash = s.metadata.labels?.[KEYS.sourceUid] ?? '';
      const fx = fixtures.get(hash);
      expect(fx ? hash : `unaccounted ${s.metadata.name}`).toBe(hash);
      await checkSnapshot(s, fx!);
    }
  });
});
