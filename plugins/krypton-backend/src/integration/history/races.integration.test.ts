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
 * Two backend instances race on one Secret with many concurrent updates and restores. Nothing is
 * faked: the only thing that makes operations fail is the other writers. Afterwards the cluster
 * itself is the witness: every state that a successful write replaced is in history unless
 * retention removed it, no version is held twice, no failed operation wrote, and every failure was
 * one of the documented 409s and 503s (or the 404 of a restore whose version retention removed
 * between the client's version list and its restore).
 */

const WORKERS = 8;
const OPS = 240;
/** Share of operations that restore a listed version instead of writing new data. */
const RESTORE_SHARE = 0.35;
const NAME = 'raced';

/** The documented failure answers of a contended update or restore, by status. */
const DOCUMENTED: Record<
  number,
  { kinds: Array<'put' | 'restore'>; errors: Record<string, string | RegExp> }
> = {
  409: {
    kinds: ['put', 'restore'],
    errors: {
      stale: messages.staleRevision,
      'source-conflict': messages.sourceConflict,
      'archive-changed': messages.archiveChanged,
      'counter-behind': messages.counterBehindHistory,
    },
  },
  503: {
    kinds: ['put', 'restore'],
    errors: {
      'history-unavailable': messages.historyUnavailable,
      'cleanup-incomplete':
        /^History cleanup did not finish \(\d+ confirmed absent, \d+ pending, \d+ failed\), so the Secret was not changed\./,
    },
  },
  // Retention may remove a version between the client's version list and its restore.
  404: {
    kinds: ['restore'],
    errors: { 'version-pruned': messages.versionNotFound },
  },
};

/** The documented kind of a failure answer, or undefined when it is not documented. */
function classify(op: Op): string | undefined {
  const entry = DOCUMENTED[op.status];
  if (!entry || !entry.kinds.includes(op.kind)) return undefined;
  const error = op.body?.error;
  if (typeof error !== 'string') return undefined;
  for (const [kind, expected] of Object.entries(entry.errors)) {
    if (
      typeof expected === 'string' ? error === expected : expected.test(error)
    )
      return kind;
  }
  return undefined;
}

/** A live state as the API showed it: the data and app counter at one resourceVersion. */
interface State {
  resourceVersion: string;
  version: number;
  data: Record<string, string>;
}

/** One update or restore: what it was based on, what it asked for, and what it got. */
interface Op {
  n: number;
  backend: number;
  kind: 'put' | 'restore';
  basedOn: State;
  /** The value a PUT wrote. */
  value?: string;
  /** The version a restore asked for. */
  target?: number;
  status: number;
  body: any;
}

interface RaceOutcome {
  uid: string;
  created: State;
  ops: Op[];
  /** GETs and version lists that did not answer 200, with their answers. */
  readFailures: Array<{ what: string; status: number; body: unknown }>;
  /** Every state that any answer showed, by resourceVersion. */
  states: Map<string, State>;
  stateMismatches: string[];
}

function toState(body: any): State {
  return {
    resourceVersion: body.resourceVersion,
    version: body.version,
    data: { ...body.data },
  };
}

describe.each([
  ['the default history limit', undefined, 20],
  ['historyLimit 5', 5, 5],
])(
  'two backend instances racing on one Secret, %s',
  (_label, configuredLimit, limit) => {
    const ns = useTestNamespace();
    const admin = new ClusterAdmin();
    let backends: KryptonTestBackend[] = [];
    const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
    // The replicas share a PostgreSQL, as Backstage deployments with several replicas do.
    let postgres: Postgres;

    beforeAll(async () => {
      postgres = await startPostgres();
      const config = {
        kubernetes: {
          identity: 'serviceAccount',
          serviceAccountMode: { namespaces: [ns.name] },
        },
        ...(configuredLimit === undefined
          ? {}
          : { historyLimit: configuredLimit }),
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

    async function race(): Promise<RaceOutcome> {
      const api = (i: number) => request(backends[i].server);
      const created = await api(0)
        .post(base())
        .set('Authorization', as('root'))
        .send({ name: NAME, data: { k: 'initial' } });
      expect(created.status).toBe(201);
      expect(created.body.version).toBe(1);

      const outcome: RaceOutcome = {
        uid: created.body.uid,
        created: toState(created.body),
        ops: [],
        readFailures: [],
        states: new Map(),
        stateMismatches: [],
      };
      const remember = (state: State) => {
        const known = outcome.states.get(state.resourceVersion);
        if (!known) outcome.states.set(state.resourceVersion, state);
        else if (JSON.stringify(known) !== JSON.stringify(state)) {
          outcome.stateMismatches.push(
            `${state.resourceVersion}: ${JSON.stringify(
              known,
            )} vs ${JSON.stringify(state)}`,
          );
        }
      };
      remember(outcome.created);

      const random = mulberry32(0x6b72 + limit);
      let next = 0;
      const worker = async (w: number) => {
        const b = w % 2;
        for (let n = next++; n < OPS; n = next++) {
          // A restore picks its version first, then reloads the Secret, so that restores compete
          // with updates on an equally fresh revision; the list itself may be outdated by then.
          let target: number | undefined;
          if (random() < RESTORE_SHARE) {
            const list = await api(b)
              .get(`${base()}/${NAME}/versions`)
              .set('Authorization', as('root'));
            if (list.status !== 200) {
              outcome.readFailures.push({
                what: `versions (op ${n})`,
                status: list.status,
                body: list.body,
              });
              continue;
            }
            const items: Array<{ version: number }> = list.body.items;
            if (items.length > 0)
              target = items[Math.floor(random() * items.length)].version;
          }
          const loaded = await api(b)
            .get(`${base()}/${NAME}`)
            .set('Authorization', as('root'));
          if (loaded.status !== 200) {
            outcome.readFailures.push({
              what: `GET (op ${n})`,
              status: loaded.status,
              body: loaded.body,
            });
            continue;
          }
          const basedOn = toState(loaded.body);
          remember(basedOn);
          let op: Op;
          if (target === undefined) {
            const value = `op-${n}`;
            const res = await api(b)
              .put(`${base()}/${NAME}`)
              .set('Authorization', as('root'))
              .send({
                resourceVersion: basedOn.resourceVersion,
                data: { k: value },
              });
            op = {
              n,
              backend: b,
              kind: 'put',
              basedOn,
              value,
              status: res.status,
              body: res.body,
            };
          } else {
            const res = await api(b)
              .post(`${base()}/${NAME}/restore`)
              .set('Authorization', as('root'))
              .send({
                version: target,
                resourceVersion: basedOn.resourceVersion,
              });
            op = {
              n,
              backend: b,
              kind: 'restore',
              basedOn,
              target,
              status: res.status,
              body: res.body,
            };
          }
          if (op.status === 200) remember(toState(op.body));
          outcome.ops.push(op);
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      return outcome;
    }

    it('keeps every replaced state in history, holds no version twice, and fails only as documented', async () => {
      const started = Date.now();
      const outcome = await race();
      const { ops, uid, created, states } = outcome;

      // The same resourceVersion never showed two different states, and reads never failed.
      expect(outcome.stateMismatches).toEqual([]);
      expect(outcome.readFailures).toEqual([]);

      // Every answer is documented; count them by status and kind.
      const counts = new Map<string, number>();
      const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
      const undocumented: Op[] = [];
      for (const op of ops) {
        bump(String(op.status));
        if (op.status === 200) {
          bump(`200 ${op.kind}`);
          continue;
        }
        const kind = classify(op);
        if (kind) bump(`${op.status} ${kind}`);
        else undocumented.push(op);
      }
      // Printed before any invariant is judged, so that a failing run still shows them.
      const attempts = (kind: Op['kind']) =>
        ops.filter(op => op.kind === kind).length;
      const statuses = [...counts.keys()]
        .filter(k => /^\d+$/.test(k))
        .sort()
        .map(k => `${k}: ${counts.get(k)}`)
        .join(', ');
      const details = [...counts.keys()]
        .filter(k => k.includes(' '))
        .sort()
        .map(k => `${k} ${counts.get(k)}`)
        .join(', ');
      process.stdout.write(
        `races (history limit ${limit}): ${
          ops.length
        } ops, ${WORKERS} clients on 2 backends — ${statuses}${
          undocumented.length > 0
            ? ` (${undocumented.length} undocumented)`
            : ''
        }\n  ${attempts('put')} updates, ${attempts(
          'restore',
        )} restores: ${details}\n`,
      );
      expect(
        undocumented.map(op => ({
          n: op.n,
          kind: op.kind,
          status: op.status,
          body: op.body,
        })),
      ).toEqual([]);

      // Successful writes changed the data; a restore of the data the Secret already holds is a
      // documented no-op that writes nothing.
      const successes = ops.filter(
        op =>
          op.status === 200 &&
          op.body.resourceVersion !== op.basedOn.resourceVersion,
      );
      const noops = ops.filter(
        op =>
          op.status === 200 &&
          op.body.resourceVersion === op.basedOn.resourceVersion,
      );
      expect(noops.every(op => op.kind === 'restore')).toBe(true);
      process.stdout.write(
        `  ${noops.length} of the 200 restores were byte-identical no-ops that wrote nothing\n`,
      );

      // Each success bumps the counter by one from the state it replaced, and the native
      // UID/resourceVersion preconditions admit only one success per replaced state.
      for (const op of successes) {
        expect({ n: op.n, version: op.body.version }).toEqual({
          n: op.n,
          version: op.basedOn.version + 1,
        });
        expect(op.body.uid).toBe(uid);
      }
      for (const op of successes.filter(o => o.kind === 'put')) {
        expect({ n: op.n, data: op.body.data }).toEqual({
          n: op.n,
          data: { k: op.value },
        });
      }
      const successByBase = new Map<string, Op>();
      for (const op of successes) {
        expect(
          successByBase.get(op.basedOn.resourceVersion)?.n,
        ).toBeUndefined();
        successByBase.set(op.basedOn.resourceVersion, op);
      }

      // The successes form one chain from the created state to the live one, with counters
      // 1, 2, 3, ... and nothing else wrote: no failed operation landed. ResourceVersions stay
      // opaque; the chain is followed by "based on", never by sorting them.
      const chain: State[] = [created];
      for (
        let op = successByBase.get(created.resourceVersion);
        op;
        op = successByBase.get(op.body.resourceVersion)
      ) {
        chain.push(states.get(op.body.resourceVersion)!);
      }
      expect(chain).toHaveLength(successes.length + 1);
      expect(chain.map(s => s.version)).toEqual(chain.map((_, i) => i + 1));
      const live: NativeSecret = await admin.secret(ns.name, NAME);
      const final = chain[chain.length - 1];
      expect(live.metadata.uid).toBe(uid);
      expect(live.metadata.resourceVersion).toBe(final.resourceVersion);
      expect(live.metadata.annotations?.['krypton.io/version']).toBe(
        String(final.version),
      );
      expect(decode(live.data)).toEqual(final.data);
      const byCounter = new Map(chain.map(s => [s.version, s]));

      // A restore brought back exactly the data of the state that held its target version.
      for (const op of ops.filter(
        o => o.kind === 'restore' && o.status === 200,
      )) {
        expect({ n: op.n, data: op.body.data }).toEqual({
          n: op.n,
          data: byCounter.get(op.target!)?.data,
        });
      }
      for (const op of noops) {
        expect(op.body.version).toBe(op.basedOn.version);
        expect(op.basedOn.data).toEqual(byCounter.get(op.target!)?.data);
      }

      // The cluster's own record: this UID's snapshots, as raw objects.
      const snapshots = (await admin.snapshots(ns.name)).filter(
        s => s.metadata.annotations?.['krypton.io/source-uid'] === uid,
      );
      const uidHash = hash32(uid);
      const seen = new Map<number, string>();
      const duplicates: string[] = [];
      const ghosts: string[] = [];
      for (const snap of snapshots) {
        const annotations = snap.metadata.annotations ?? {};
        const version = Number(annotations['krypton.io/version']);
        const sourceRv = annotations['krypton.io/source-resource-version'];
        // A valid binding: the name, labels and annotations agree, and the object is an
        // immutable Opaque copy with no lifecycle of its own.
        expect(annotations['krypton.io/version']).toMatch(/^[1-9][0-9]*$/);
        expect(snap.metadata.name).toBe(`krypton-h-${uidHash}-v${version}`);
        expect(snap.metadata.labels).toEqual({
          'krypton.io/managed-by': 'krypton',
          'krypton.io/kind': 'history',
          'krypton.io/source-uid': uidHash,
          'krypton.io/source-resource-version': hash32(sourceRv ?? ''),
        });
        expect(annotations).toMatchObject({
          'krypton.io/history-format': 'uid-rv-v1',
          'krypton.io/source-uid': uid,
          'krypton.io/history-of': NAME,
          'krypton.io/source-type': 'Opaque',
          'krypton.io/snapshot-by': 'user:default/root',
        });
        expect(snap.immutable).toBe(true);
        expect(snap.type).toBe('Opaque');
        expect(snap.metadata.ownerReferences ?? []).toEqual([]);
        expect(snap.metadata.finalizers ?? []).toEqual([]);
        expect(snap.metadata.deletionTimestamp).toBeUndefined();

        if (seen.has(version)) duplicates.push(`v${version}`);
        seen.set(version, sourceRv);
        // Each snapshot holds the state of the chain that had its version, byte for byte.
        const state = byCounter.get(version);
        if (
          !state ||
          state.resourceVersion !== sourceRv ||
          JSON.stringify(decode(snap.data)) !== JSON.stringify(state.data)
        ) {
          ghosts.push(`v${version} from ${sourceRv}`);
        }
        // History holds states that were replaced: never the live one, never a later one.
        expect(version).toBeLessThan(final.version);
      }
      expect(duplicates).toEqual([]);
      expect(ghosts).toEqual([]);

      // Every state a success replaced is in history, bound to the revision it was replaced at,
      // unless retention removed it. Retention only removes snapshots with `limit` newer ones
      // beside them, so the `limit` newest replaced states must all be there. A restore never
      // prunes its own target: when the last write restored the oldest retained version, the
      // next-oldest went instead, so one state fewer is sure to remain.
      const last = successes.find(op => op.body.version === final.version);
      const keptTarget =
        last?.kind === 'restore' && last.target! <= final.version - limit - 1
          ? 1
          : 0;
      const retainedFrom = Math.max(1, final.version - limit + keptTarget);
      const missing: string[] = [];
      let pruned = 0;
      for (const op of successes) {
        const { version, resourceVersion } = op.basedOn;
        if (seen.get(version) === resourceVersion) continue;
        if (version < retainedFrom && !seen.has(version)) pruned++;
        else missing.push(`v${version} at ${resourceVersion} (op ${op.n})`);
      }
      expect(missing).toEqual([]);
      // Older snapshots beyond the limit: a pruned version saved again by a writer whose live
      // read was already stale, and whose write was then refused.
      const extra = [...seen.keys()].filter(v => v < retainedFrom).length;

      // No refusal was spurious: every 409 was based on a state that another writer replaced (a
      // stale read, whatever the message), and every 404 asked for a version that retention may
      // have removed, one with at least `limit` newer replaced states.
      const unjustified = ops.filter(
        op =>
          (op.status === 409 &&
            !successByBase.has(op.basedOn.resourceVersion)) ||
          (op.status === 404 && !(op.target! < retainedFrom)),
      );
      expect(
        unjustified.map(op => ({ n: op.n, status: op.status, body: op.body })),
      ).toEqual([]);

      expect(counts.get('200') ?? 0).toBeGreaterThan(0);
      expect(counts.get('409') ?? 0).toBeGreaterThan(0);
      expect(successes.length).toBe(final.version - 1);

      process.stdout.write(
        `  live v${final.version}; history holds ${
          snapshots.length
        } snapshots (${pruned} replaced states pruned, ${extra} older than the limit); ${
          Date.now() - started
        } ms\n`,
      );
    });
  },
);
