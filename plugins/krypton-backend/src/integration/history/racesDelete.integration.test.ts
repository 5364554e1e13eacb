import { performance } from 'node:perf_hooks';
import {
  Postgres,
  startPostgres,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import { messages, NativeSecret } from '@krypton/core';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';
import { decode, hash32, mulberry32 } from '../../__testUtils__/history';

/**
 * Two backend instances and many concurrent clients update, restore, delete (with and without
 * keepHistory) and re-create a few shared Secrets. Nothing is faked: the only thing that makes an
 * operation fail is another client. Every request is recorded with what it was based on and when
 * it ran; afterwards the cluster itself is the witness:
 *
 * - each Secret incarnation (UID) is one chain of successful writes, versions 1, 2, 3, ... from its
 *   create to the live object or to the one delete that removed it;
 * - every state a successful write replaced is in its UID's history, unless retention or the
 *   partial cleanup of a failed delete (both documented) removed it; kept history stays;
 * - every snapshot in the namespace is validly bound to a UID that existed and holds exactly the
 *   state of that UID's chain at its version; of a UID deleted with history "cleaned", only what
 *   a writer in flight across that delete saved can remain (the spec's one exception);
 * - version lists only ever show the history of the incarnation they were asked about;
 * - every failure is documented, with its message, and justified by another client's operation.
 */

const NAMES = ['alpha', 'beta', 'gamma'];
const WORKERS = 9;
const OPS = 1000;
/** Small, so that retention prunes within the short lives of incarnations. */
const LIMIT = 3;
const PUT_SHARE = 0.55;
const RESTORE_SHARE = 0.3;
/** The rest deletes; this share of them keeps history. */
const KEEP_SHARE = 0.4;

type Kind = 'get' | 'versions' | 'create' | 'put' | 'restore' | 'delete';

/** A live state as the API showed it: one incarnation's data and counter at one revision. */
interface State {
  uid: string;
  resourceVersion: string;
  version: number;
  data: Record<string, string>;
}

/** One request: what it was based on, what it asked for, when it ran and what it got. */
interface Op {
  /** The plan step; -1 for the initial creates. */
  n: number;
  backend: number;
  kind: Kind;
  name: string;
  /** The state a put, restore or delete sent the revision of. */
  basedOn?: State;
  /** The value a put or create wrote. */
  value?: string;
  /** The version a restore asked for, and the version list it was picked from. */
  target?: number;
  list?: Op;
  keepHistory?: boolean;
  /** A create: when the read that found the name absent was sent. */
  absentSince?: number;
  /** Client-side times; the server handled the request in between. */
  start: number;
  end: number;
  status: number;
  body: any;
}

const cleanupIncomplete = (what: string) =>
  new RegExp(
    `^History cleanup did not finish \\(\\d+ confirmed absent, \\d+ pending, \\d+ failed\\), so ${what}\\. Resolve pending or failed snapshots and try again\\.$`,
  );
const WRITE_FAILURES: Record<number, Record<string, string | RegExp>> = {
  404: { 'not-found': messages.notFound },
  409: {
    stale: messages.staleRevision,
    'archive-changed': messages.archiveChanged,
    'source-conflict': messages.sourceConflict,
    'counter-behind': messages.counterBehindHistory,
  },
  503: {
    'history-unavailable': messages.historyUnavailable,
    'cleanup-incomplete': cleanupIncomplete('the Secret was not changed'),
  },
};

/**
 * The documented failure answers of each request, by status. A 202 "pending" delete is documented
 * only while finalizers hold the Secret; these Secrets have none, so it is not listed.
 */
const DOCUMENTED: Record<
  Kind,
  Record<number, Record<string, string | RegExp>>
> = {
  get: { 404: { 'not-found': messages.notFound } },
  versions: { 404: { 'not-found': messages.notFound } },
  create: { 409: { 'already-exists': messages.alreadyExists } },
  put: WRITE_FAILURES,
  restore: {
    ...WRITE_FAILURES,
    404: {
      'not-found': messages.notFound,
      'version-not-found': messages.versionNotFound,
    },
  },
  delete: {
    404: { 'not-found': messages.notFound },
    409: {
      stale: messages.staleRevision,
      // The spec: "snapshot precondition conflicts return 409".
      'snapshot-changed': messages.snapshotChanged,
    },
    503: {
      'cleanup-incomplete': cleanupIncomplete('the Secret was not deleted'),
    },
  },
};
const SUCCESS: Record<Kind, number> = {
  get: 200,
  versions: 200,
  create: 201,
  put: 200,
  restore: 200,
  delete: 200,
};

/** The documented kind of a failure answer, or undefined when it is not documented. */
function classify(op: Op): string | undefined {
  const entry = DOCUMENTED[op.kind][op.status];
  const error = op.body?.error;
  if (!entry || typeof error !== 'string') return undefined;
  // The envelope carries the fixed message and, for cleanups that stopped, only the counts.
  const extra = Object.keys(op.body).filter(
    k => k !== 'error' && k !== 'history',
  );
  if (extra.length > 0) return undefined;
  if (op.body.history !== undefined) {
    const h = op.body.history;
    if (
      Object.keys(h).sort().join() !== 'confirmedAbsent,failed,pending' ||
      ![h.confirmedAbsent, h.pending, h.failed].every(Number.isInteger)
    ) {
      return undefined;
    }
  }
  for (const [kind, expected] of Object.entries(entry)) {
    if (
      typeof expected === 'string' ? error === expected : expected.test(error)
    )
      return kind;
  }
  return undefined;
}

function toState(body: any): State {
  return {
    uid: body.uid,
    resourceVersion: body.resourceVersion,
    version: body.version,
    data: { ...body.data },
  };
}

/** One lifetime of a name: its create, its chain of successful writes, and its delete. */
interface Incarnation {
  uid: string;
  name: string;
  create: Op;
  chain: State[];
  byCounter: Map<number, State>;
  /** The 200 delete that ended it. */
  deleted?: Op;
}

/**
 * The operation log around unexpected answers: every request on the same name that overlapped
 * one, in start order, so that a failing run shows which clients met. No values: only versions,
 * revisions and answers.
 */
function logAround(ops: Op[], failures: Op[]) {
  for (const failure of failures.slice(0, 5)) {
    const lines = ops
      .filter(
        o =>
          o.name === failure.name &&
          o.start < failure.end &&
          o.end > failure.start,
      )
      .sort((a, b) => a.start - b.start)
      .map(o => {
        const based = o.basedOn
          ? ` on ${o.basedOn.uid.slice(0, 8)} v${o.basedOn.version} rv ${
              o.basedOn.resourceVersion
            }`
          : '';
        const target = o.target !== undefined ? ` target v${o.target}` : '';
        const keep = o.keepHistory ? ' keepHistory' : '';
        const answer =
          o.status >= 400 || o.kind === 'delete'
            ? JSON.stringify(o.body)
            : `v${o.body?.version ?? ''} rv ${o.body?.resourceVersion ?? ''}`;
        return `    ${o === failure ? '>' : ' '} ${o.start.toFixed(
          1,
        )}-${o.end.toFixed(1)} #${o.n} b${o.backend} ${
          o.kind
        }${based}${target}${keep}: ${o.status} ${answer}`;
      });
    process.stdout.write(
      `operations on ${failure.name} around #${failure.n} (${failure.kind} ${
        failure.status
      }):\n${lines.join('\n')}\n`,
    );
  }
}

describe('two backend instances racing updates, restores, deletes and re-creates on shared Secrets', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let backends: KryptonTestBackend[] = [];
  const collection = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const at = (name: string) => `${collection()}/${name}`;
  const auth = as('root');
  // The replicas share a PostgreSQL, as Backstage deployments with several replicas do.
  let postgres: Postgres;

  beforeAll(async () => {
    postgres = await startPostgres();
    const config = {
      kubernetes: {
        identity: 'serviceAccount',
        serviceAccountMode: { namespaces: [ns.name] },
      },
      historyLimit: LIMIT,
    };
    backends = await Promise.all([
      startKryptonBackend(config, { postgres }),
      startKryptonBackend(config, { postgres }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(backends.map(b => b.stop()));
    await postgres?.stop();
    admin.close();
  });

  it('keeps every incarnation one chain with its history, cleans or keeps history as the delete said, and fails only as documented', async () => {
    const started = performance.now();
    const ops: Op[] = [];
    const call = async (
      op: Omit<Op, 'start' | 'end' | 'status' | 'body'>,
      send: (api: ReturnType<typeof request>) => request.Test,
    ): Promise<Op> => {
      const start = performance.now();
      const res = await send(request(backends[op.backend].server));
      const done: Op = {
        ...op,
        start,
        end: performance.now(),
        status: res.status,
        body: res.body,
      };
      ops.push(done);
      return done;
    };
    const create = (
      base: Pick<Op, 'n' | 'backend' | 'name'>,
      value: string,
      absentSince?: number,
    ) =>
      call({ ...base, kind: 'create', value, absentSince }, api =>
        api
          .post(collection())
          .set('Authorization', auth)
          .send({ name: base.name, data: { k: value } }),
      );

    for (const name of NAMES) {
      expect(
        (await create({ n: -1, backend: 0, name }, `${name}-initial`)).status,
      ).toBe(201);
    }

    // The plan is fixed by the seed; which requests meet which is up to the interleaving.
    const random = mulberry32(0x6b72de1);
    const plan = Array.from({ length: OPS }, () => {
      const name = NAMES[Math.floor(random() * NAMES.length)];
      const r = random();
      let kind: 'put' | 'restore' | 'delete' = 'delete';
      if (r < PUT_SHARE) kind = 'put';
      else if (r < PUT_SHARE + RESTORE_SHARE) kind = 'restore';
      return { name, kind, keepHistory: random() < KEEP_SHARE, pick: random() };
    });

    let next = 0;
    const worker = async (w: number) => {
      const backend = w % 2;
      for (let n = next++; n < OPS; n = next++) {
        const step = plan[n];
        const base = { n, backend, name: step.name };
        // A restore picks its version first, then reloads the Secret, so that restores compete
        // with updates on an equally fresh revision; the list may be outdated by then, or be of
        // an incarnation that another client has deleted and re-created meanwhile.
        const list =
          step.kind === 'restore'
            ? await call({ ...base, kind: 'versions' }, api =>
                api.get(`${at(step.name)}/versions`).set('Authorization', auth),
              )
            : undefined;
        const loaded = await call({ ...base, kind: 'get' }, api =>
          api.get(at(step.name)).set('Authorization', auth),
        );
        if (loaded.status === 404) {
          // A deleted name: re-create it, racing the other clients that found it absent.
          await create(base, `create-${n}`, loaded.start);
          continue;
        }
        if (loaded.status !== 200) continue;
        const basedOn = toState(loaded.body);
        const items: Array<{ version: number }> =
          list?.status === 200 ? list.body.items : [];
        if (step.kind === 'delete') {
          const query = `resourceVersion=${encodeURIComponent(
            basedOn.resourceVersion,
          )}${step.keepHistory ? '&keepHistory=true' : ''}`;
          await call(
            { ...base, kind: 'delete', basedOn, keepHistory: step.keepHistory },
            api =>
              api
                .delete(`${at(step.name)}?${query}`)
                .set('Authorization', auth),
          );
        } else if (step.kind === 'restore' && items.length > 0) {
          const target = items[Math.floor(step.pick * items.length)].version;
          await call({ ...base, kind: 'restore', basedOn, target, list }, api =>
            api
              .post(`${at(step.name)}/restore`)
              .set('Authorization', auth)
              .send({
                version: target,
                resourceVersion: basedOn.resourceVersion,
              }),
          );
        } else {
          // An update, or a restore with nothing listed to restore yet.
          const value = `op-${n}`;
          await call({ ...base, kind: 'put', basedOn, value }, api =>
            api
              .put(at(step.name))
              .set('Authorization', auth)
              .send({
                resourceVersion: basedOn.resourceVersion,
                data: { k: value },
              }),
          );
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    const raceMs = performance.now() - started;

    // Every answer is documented; count them by request, status and kind. Printed before any
    // invariant is judged, so that a failing run still shows them.
    const counts = new Map<string, number>();
    const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    const undocumented: Op[] = [];
    const kindOf = new Map<Op, string>();
    for (const op of ops) {
      if (op.status === SUCCESS[op.kind]) {
        let detail = '';
        if (op.kind === 'delete') detail = ` ${op.body?.history}`;
        if (op.kind === 'create' && op.n < 0) detail = ' initial';
        if (
          op.kind === 'restore' &&
          op.body.resourceVersion === op.basedOn!.resourceVersion
        )
          detail = ' no-op';
        bump(`${op.kind} ${op.status}${detail}`);
        continue;
      }
      const kind = classify(op);
      if (!kind) {
        undocumented.push(op);
        bump(`${op.kind} ${op.status} UNDOCUMENTED`);
        continue;
      }
      kindOf.set(op, kind);
      const partial =
        op.body.history?.confirmedAbsent > 0 ? ' after partial cleanup' : '';
      bump(`${op.kind} ${op.status} ${kind}${partial}`);
    }
    const order: Kind[] = [
      'put',
      'restore',
      'delete',
      'create',
      'get',
      'versions',
    ];
    const table = order
      .map(kind => {
        const rows = [...counts.keys()]
          .filter(k => k.startsWith(`${kind} `))
          .sort()
          .map(k => `${k.slice(kind.length + 1)}: ${counts.get(k)}`);
        const total = ops.filter(o => o.kind === kind).length;
        return `  ${kind} (${total}): ${rows.join(', ')}`;
      })
      .join('\n');
    process.stdout.write(
      `races with deletes (history limit ${LIMIT}): ${OPS} planned operations on ${
        NAMES.length
      } Secrets, ${WORKERS} clients on 2 backends, ${
        ops.length
      } requests in ${Math.round(raceMs)} ms\n${table}\n`,
    );
    logAround(ops, undocumented);
    expect(
      undocumented.map(op => ({
        n: op.n,
        kind: op.kind,
        status: op.status,
        body: op.body,
      })),
    ).toEqual([]);

    // The same resourceVersion never showed two different states.
    const states = new Map<string, State>();
    const stateMismatches: string[] = [];
    const remember = (state: State) => {
      const known = states.get(state.resourceVersion);
      if (!known) states.set(state.resourceVersion, state);
      else if (JSON.stringify(known) !== JSON.stringify(state))
        stateMismatches.push(
          `${JSON.stringify(known)} vs ${JSON.stringify(state)}`,
        );
    };
    for (const op of ops) {
      if (op.basedOn) remember(op.basedOn);
      if (
        op.status === 200 &&
        (op.kind === 'put' || op.kind === 'restore' || op.kind === 'get')
      )
        remember(toState(op.body));
      if (op.kind === 'create' && op.status === 201) remember(toState(op.body));
    }
    expect(stateMismatches).toEqual([]);

    // Incarnations: each 201 create starts one, at version 1 with the data it sent.
    const incarnations = new Map<string, Incarnation>();
    for (const op of ops.filter(o => o.kind === 'create' && o.status === 201)) {
      expect({
        name: op.body.name,
        version: op.body.version,
        data: op.body.data,
      }).toEqual({ name: op.name, version: 1, data: { k: op.value } });
      expect(incarnations.has(op.body.uid)).toBe(false);
      const created = toState(op.body);
      incarnations.set(op.body.uid, {
        uid: op.body.uid,
        name: op.name,
        create: op,
        chain: [created],
        byCounter: new Map([[1, created]]),
      });
    }
    const incarnationOf = (op: Op) => incarnations.get(op.basedOn!.uid);
    // Every state a client based a request on belongs to an incarnation of that name.
    expect(
      ops
        .filter(o => o.basedOn && incarnationOf(o)?.name !== o.name)
        .map(o => o.n),
    ).toEqual([]);

    // Successful writes: the counter goes up by one from the state each replaced, on the same
    // UID, and the native preconditions admit only one success per replaced state.
    const writes = ops.filter(o => o.kind === 'put' || o.kind === 'restore');
    const successes = writes.filter(
      op =>
        op.status === 200 &&
        op.body.resourceVersion !== op.basedOn!.resourceVersion,
    );
    const noops = writes.filter(
      op =>
        op.status === 200 &&
        op.body.resourceVersion === op.basedOn!.resourceVersion,
    );
    // A restore of the data the Secret already holds is a documented no-op that writes nothing.
    expect(noops.filter(op => op.kind !== 'restore').map(op => op.n)).toEqual(
      [],
    );
    for (const op of successes) {
      expect({ n: op.n, uid: op.body.uid, version: op.body.version }).toEqual({
        n: op.n,
        uid: op.basedOn!.uid,
        version: op.basedOn!.version + 1,
      });
    }
    for (const op of successes.filter(o => o.kind === 'put')) {
      expect({ n: op.n, data: op.body.data }).toEqual({
        n: op.n,
        data: { k: op.value },
      });
    }
    // Krypton's cleaned delete marks the live Secret just before its DELETE (history-cleaned-at):
    // a metadata-only write, the same counter and data under a new revision. When the DELETE then
    // loses to another write, a client may have loaded that revision, based a write on it or saved
    // it into history. So a chain is followed by position (UID and counter), and every revision
    // seen at a position must hold that position's state.
    const position = (state: State) => `${state.uid}#${state.version}`;
    const holds = (state: State | undefined, revision: string | undefined) => {
      if (!state || revision === undefined) return false;
      if (state.resourceVersion === revision) return true;
      const seen = states.get(revision);
      return (
        seen !== undefined &&
        position(seen) === position(state) &&
        JSON.stringify(seen.data) === JSON.stringify(state.data)
      );
    };
    const successByBase = new Map<string, Op>();
    for (const op of successes) {
      const replaced = position(op.basedOn!);
      expect({
        replaced,
        twice: successByBase.get(replaced)?.n,
      }).toEqual({ replaced, twice: undefined });
      successByBase.set(replaced, op);
    }

    // Each incarnation's successes form one chain from its created state, counters 1, 2, 3, ...:
    // no version twice, strictly increasing, and nothing else wrote. ResourceVersions stay
    // opaque; the chain is followed by "based on", never by sorting them.
    for (const inc of incarnations.values()) {
      for (
        let op = successByBase.get(position(inc.chain[0]));
        op;
        op = successByBase.get(position(toState(op.body)))
      ) {
        const state = toState(op.body);
        inc.chain.push(state);
        inc.byCounter.set(state.version, state);
      }
      const mine = successes.filter(op => op.basedOn!.uid === inc.uid);
      expect({ uid: inc.uid, length: inc.chain.length }).toEqual({
        uid: inc.uid,
        length: mine.length + 1,
      });
      expect(inc.chain.map(s => s.version)).toEqual(
        inc.chain.map((_, i) => i + 1),
      );
    }
    const top = (inc: Incarnation) => inc.chain[inc.chain.length - 1];

    // A restore brought back exactly the data its target version held in the same incarnation.
    for (const op of writes.filter(
      o => o.kind === 'restore' && o.status === 200,
    )) {
      expect({ n: op.n, data: op.body.data }).toEqual({
        n: op.n,
        data: incarnationOf(op)!.byCounter.get(op.target!)?.data,
      });
    }
    for (const op of noops) {
      expect({
        n: op.n,
        version: op.body.version,
        data: op.basedOn!.data,
      }).toEqual({
        n: op.n,
        version: op.basedOn!.version,
        data: incarnationOf(op)!.byCounter.get(op.target!)?.data,
      });
    }

    // A delete that answered 200 confirmed the deletion, said what became of history, and removed
    // the end of its incarnation's chain: no write landed after it. One per incarnation.
    const deletes = ops.filter(o => o.kind === 'delete');
    for (const op of deletes.filter(o => o.status === 200)) {
      expect({ n: op.n, body: op.body }).toEqual({
        n: op.n,
        body: {
          status: 'deleted',
          history: op.keepHistory ? 'kept' : 'cleaned',
        },
      });
      const inc = incarnationOf(op)!;
      expect({ n: op.n, earlier: inc.deleted?.n }).toEqual({
        n: op.n,
        earlier: undefined,
      });
      inc.deleted = op;
      expect({ n: op.n, deleted: position(op.basedOn!) }).toEqual({
        n: op.n,
        deleted: position(top(inc)),
      });
    }

    // The cluster's own record of each name: the incarnation that was never deleted is the live
    // object, at the end of its chain; a name whose every incarnation was deleted is absent.
    for (const name of NAMES) {
      const remaining = [...incarnations.values()].filter(
        inc => inc.name === name && !inc.deleted,
      );
      const res = await admin.getSecret(ns.name, name);
      const live = res.body as NativeSecret;
      const observed =
        res.status === 200
          ? [
              {
                uid: live.metadata.uid,
                resourceVersion: live.metadata.resourceVersion,
                version: live.metadata.annotations?.['krypton.io/version'],
                data: decode(live.data),
              },
            ]
          : [];
      const expected = remaining.map(inc => {
        const final = top(inc);
        return {
          uid: final.uid,
          resourceVersion: final.resourceVersion,
          version: String(final.version),
          data: final.data,
        };
      });
      expect({ name, status: res.status, live: observed }).toEqual({
        name,
        status: expected.length > 0 ? 200 : 404,
        live: expected,
      });
    }

    // Every Secret in the namespace is either a live incarnation or a validly bound snapshot of
    // an incarnation that existed, holding exactly its chain's state at that version.
    const all = await admin.listSecrets(ns.name);
    const liveUids = new Set(
      [...incarnations.values()].filter(i => !i.deleted).map(i => i.uid),
    );
    const snapshots = all.filter(s => !liveUids.has(s.metadata.uid!));
    const held = new Map<string, Map<number, NativeSecret>>();
    const problems: string[] = [];
    for (const snap of snapshots) {
      const annotations = snap.metadata.annotations ?? {};
      const sourceUid = annotations['krypton.io/source-uid'];
      const sourceRv = annotations['krypton.io/source-resource-version'];
      const version = Number(annotations['krypton.io/version']);
      const inc = incarnations.get(sourceUid ?? '');
      if (!inc) {
        problems.push(`${snap.metadata.name}: no incarnation ${sourceUid}`);
        continue;
      }
      // A valid binding: the name, labels and annotations agree, and the object is an immutable
      // Opaque copy with no lifecycle of its own.
      expect(annotations['krypton.io/version']).toMatch(/^[1-9][0-9]*$/);
      expect(snap.metadata.name).toBe(
        `krypton-h-${hash32(sourceUid)}-v${version}`,
      );
      expect(snap.metadata.labels).toEqual({
        'krypton.io/managed-by': 'krypton',
        'krypton.io/kind': 'history',
        'krypton.io/source-uid': hash32(sourceUid),
        'krypton.io/source-resource-version': hash32(sourceRv ?? ''),
      });
      expect(annotations).toMatchObject({
        'krypton.io/history-format': 'uid-rv-v1',
        'krypton.io/history-of': inc.name,
        'krypton.io/source-type': 'Opaque',
        'krypton.io/snapshot-by': 'user:default/root',
      });
      expect(
        Number.isNaN(Date.parse(annotations['krypton.io/snapshot-at'])),
      ).toBe(false);
      expect(snap.immutable).toBe(true);
      expect(snap.type).toBe('Opaque');
      expect(snap.metadata.ownerReferences ?? []).toEqual([]);
      expect(snap.metadata.finalizers ?? []).toEqual([]);
      expect(snap.metadata.deletionTimestamp).toBeUndefined();

      const mine = held.get(inc.uid) ?? new Map<number, NativeSecret>();
      held.set(inc.uid, mine);
      if (mine.has(version)) problems.push(`${inc.uid} v${version} twice`);
      mine.set(version, snap);
      // History holds states of this incarnation's chain, byte for byte, at their own version.
      const state = inc.byCounter.get(version);
      if (
        !holds(state, sourceRv) ||
        JSON.stringify(decode(snap.data)) !== JSON.stringify(state!.data)
      ) {
        problems.push(`${inc.name} ${inc.uid} v${version} from ${sourceRv}`);
      }
    }
    expect(problems).toEqual([]);

    // Retention keeps the newest LIMIT snapshots of an incarnation, and the chain's end is the
    // newest state any writer can save. A restore's target stays while the oldest other goes, so
    // one more version is fair game when a restore targeted an older one.
    const prunable = (inc: Incarnation, version: number) =>
      version <= top(inc).version - LIMIT ||
      (version === top(inc).version - LIMIT + 1 &&
        writes.some(
          o =>
            o.kind === 'restore' &&
            o.basedOn!.uid === inc.uid &&
            o.target! < version,
        ));
    /** The deletes of an incarnation whose cleanup removed snapshots, whatever they answered. */
    const cleanups = (uid: string) =>
      deletes.filter(
        d =>
          d.basedOn!.uid === uid &&
          !d.keepHistory &&
          (d.status === 200 || d.body?.history?.confirmedAbsent > 0),
      );
    const overlaps = (a: Op, b: { start: number; end: number }) =>
      a.start < b.end && a.end > b.start;

    // Live incarnations and those deleted with keepHistory: every state that a success replaced
    // is in history, unless retention removed it or a failed delete's partial cleanup did (the
    // spec: "Earlier cleanup is not rolled back after a later conflict or failure").
    let pruned = 0;
    let partlyCleaned = 0;
    let keptSnapshots = 0;
    const missing: string[] = [];
    for (const inc of incarnations.values()) {
      if (inc.deleted && !inc.deleted.keepHistory) continue;
      const mine = held.get(inc.uid) ?? new Map();
      if (inc.deleted) keptSnapshots += mine.size;
      for (const op of successes.filter(o => o.basedOn!.uid === inc.uid)) {
        const { version, resourceVersion } = op.basedOn!;
        const snap = mine.get(version);
        if (
          snap?.metadata.annotations?.['krypton.io/source-resource-version'] ===
          resourceVersion
        )
          continue;
        // The first attempt that could have saved this state, and a cleanup after it.
        const firstSave = Math.min(
          ...writes
            .filter(o => o.basedOn!.resourceVersion === resourceVersion)
            .map(o => o.start),
        );
        if (prunable(inc, version)) pruned++;
        else if (
          cleanups(inc.uid).some(d => d.status !== 200 && d.end > firstSave)
        )
          partlyCleaned++;
        else missing.push(`${inc.name} ${inc.uid} v${version} (op ${op.n})`);
      }
    }
    expect(missing).toEqual([]);

    // Incarnations deleted with history "cleaned": their history is gone, except what the spec
    // allows: "An in-flight writer holding an earlier live read can add history after that
    // check, even after deletion." Such a snapshot is the state a write of that incarnation was
    // based on, the write was under way while the delete ran, and it did not succeed (the live
    // object it would have replaced was deleted).
    let leftovers = 0;
    const unexplained: string[] = [];
    for (const inc of incarnations.values()) {
      if (!inc.deleted || inc.deleted.keepHistory) continue;
      for (const [version, snap] of held.get(inc.uid) ?? new Map()) {
        const sourceRv =
          snap.metadata.annotations?.['krypton.io/source-resource-version'];
        const writer = writes.find(
          o =>
            o.basedOn!.resourceVersion === sourceRv &&
            o.status !== 200 &&
            overlaps(o, inc.deleted!),
        );
        if (writer) leftovers++;
        else unexplained.push(`${inc.name} ${inc.uid} v${version}`);
      }
    }
    expect(unexplained).toEqual([]);

    // Version lists during the race: every item of one answer belongs to one incarnation of that
    // name, one that had not been deleted before the list was asked for, at the state its chain
    // held at that version. A re-created name never lists an earlier lifetime's history.
    let listsOfRecreated = 0;
    const foreign: string[] = [];
    for (const op of ops.filter(
      o => o.kind === 'versions' && o.status === 200,
    )) {
      const items: Array<{ version: number; sourceResourceVersion: string }> =
        op.body.items;
      const uids = new Set(
        items.map(i => states.get(i.sourceResourceVersion)?.uid),
      );
      const [uid] = uids;
      const inc = incarnations.get(uid ?? '');
      const versions = items.map(i => i.version);
      if (items.length === 0) continue;
      if (
        uids.size !== 1 ||
        !inc ||
        inc.name !== op.name ||
        (inc.deleted && inc.deleted.end < op.start) ||
        items.some(
          i => !holds(inc.byCounter.get(i.version), i.sourceResourceVersion),
        ) ||
        versions.some((v, i) => i > 0 && v >= versions[i - 1])
      ) {
        foreign.push(`list ${op.n} of ${op.name}: ${JSON.stringify(items)}`);
      } else if (
        [...incarnations.values()].some(
          other =>
            other.name === inc.name &&
            other.uid !== inc.uid &&
            other.create.start < inc.create.start &&
            other.deleted?.keepHistory,
        )
      ) {
        listsOfRecreated++;
      }
    }
    expect(foreign).toEqual([]);

    // And now, from both backends: a live name lists exactly its own incarnation's snapshots.
    for (const inc of incarnations.values()) {
      if (inc.deleted) continue;
      const expected = [...(held.get(inc.uid) ?? new Map()).entries()]
        .sort(([a], [b]) => b - a)
        .map(([version, snap]) => ({
          version,
          sourceResourceVersion:
            snap.metadata.annotations['krypton.io/source-resource-version'],
        }));
      for (const backend of [0, 1]) {
        const res = await request(backends[backend].server)
          .get(`${at(inc.name)}/versions`)
          .set('Authorization', auth);
        expect(res.status).toBe(200);
        expect(
          res.body.items.map((i: any) => ({
            version: i.version,
            sourceResourceVersion: i.sourceResourceVersion,
          })),
        ).toEqual(expected);
      }
    }

    // No refusal was spurious: each is explained by another client's request that the server
    // could have handled before the refusal was answered.
    const deleted200 = (uid: string, before: number, self?: Op) =>
      deletes.some(
        d =>
          d !== self &&
          d.status === 200 &&
          d.basedOn!.uid === uid &&
          d.start < before,
      );
    const replaced = (op: Op) => {
      const by = successByBase.get(position(op.basedOn!));
      return (
        (by !== undefined && by !== op && by.start < op.end) ||
        deleted200(op.basedOn!.uid, op.end, op)
      );
    };
    const justified = (op: Op, kind: string): boolean => {
      switch (`${op.kind} ${kind}`) {
        // The name was deleted before the read answered.
        case 'get not-found':
        case 'versions not-found':
          return deletes.some(
            d => d.status === 200 && d.name === op.name && d.start < op.end,
          );
        // Another client re-created the name after it was found absent.
        case 'create already-exists':
          return ops.some(
            o =>
              o.kind === 'create' &&
              o.status === 201 &&
              o.name === op.name &&
              o.end > op.absentSince! &&
              o.start < op.end,
          );
        // The incarnation it was based on was deleted.
        case 'put not-found':
        case 'restore not-found':
        case 'delete not-found':
          return deleted200(op.basedOn!.uid, op.end, op);
        // The snapshot it saved was removed by a delete's cleanup of the same incarnation.
        case 'put archive-changed':
        case 'restore archive-changed':
          return (
            replaced(op) ||
            deletes.some(
              d =>
                d.basedOn!.uid === op.basedOn!.uid &&
                !d.keepHistory &&
                overlaps(d, op),
            )
          );
        // The version was pruned, removed by a delete's cleanup, or listed for an earlier
        // incarnation of the name.
        case 'restore version-not-found': {
          const inc = incarnationOf(op)!;
          const window = { start: op.list!.start, end: op.end };
          const listed = states.get(
            op.list!.body.items[0].sourceResourceVersion,
          )?.uid;
          return (
            listed !== inc.uid ||
            prunable(inc, op.target!) ||
            cleanups(inc.uid).some(d => overlaps(d, window))
          );
        }
        // A writer of the same incarnation saved a snapshot while the delete cleaned up. For a
        // changed snapshot, that writer held a read from before newer writes, and re-created a
        // version slot that the cleanup had listed after retention or another delete's cleanup
        // removed it: the same name with another uid fails the cleanup's preconditions.
        case 'delete cleanup-incomplete':
        case 'delete snapshot-changed':
          return writes.some(
            o => o.basedOn!.uid === op.basedOn!.uid && overlaps(o, op),
          );
        // Everything else that is documented is a stale read: the state it was based on was
        // replaced or deleted by another client, whatever the message.
        default:
          return op.status === 409 && replaced(op);
      }
    };
    const unjustifiedOps = [...kindOf.entries()].filter(
      ([op, kind]) => !justified(op, kind),
    );
    logAround(
      ops,
      unjustifiedOps.map(([op]) => op),
    );
    expect(
      unjustifiedOps.map(([op, kind]) => ({
        n: op.n,
        kind: op.kind,
        failure: kind,
      })),
    ).toEqual([]);

    const recreates = ops.filter(
      o => o.kind === 'create' && o.status === 201 && o.n >= 0,
    ).length;
    const cleaned = deletes.filter(
      d => d.status === 200 && !d.keepHistory,
    ).length;
    const kept = deletes.filter(d => d.status === 200 && d.keepHistory).length;
    process.stdout.write(
      `  ${incarnations.size} incarnations (${recreates} re-creates), ${
        successes.length
      } successful writes, ${
        noops.length
      } no-op restores; ${cleaned} deletes cleaned, ${kept} kept\n  cluster: ${
        snapshots.length
      } snapshots, ${keptSnapshots} of them kept from deleted incarnations, ${leftovers} left by writers in flight across a cleaning delete; replaced states ${pruned} pruned by retention, ${partlyCleaned} removed by failed deletes' partial cleanup; ${listsOfRecreated} version lists of re-created names with kept predecessors; ${Math.round(
        performance.now() - started,
      )} ms\n`,
    );

    // The race really raced: every operation both succeeded and was refused, names were deleted
    // both ways and re-created, and retention pruned.
    for (const key of [
      'put 200',
      'restore 200',
      'delete 200 cleaned',
      'delete 200 kept',
      'create 201',
      'put 409 stale',
      'restore 409 stale',
      'delete 409 stale',
    ]) {
      expect({ key, seen: (counts.get(key) ?? 0) > 0 }).toEqual({
        key,
        seen: true,
      });
    }
    expect(recreates).toBeGreaterThan(0);
    expect(pruned).toBeGreaterThan(0);
    expect(keptSnapshots).toBeGreaterThan(0);
  }, 120_000);
});
