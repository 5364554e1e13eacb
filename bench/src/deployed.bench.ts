import {
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  kryptonSecretReadPermission,
  kryptonSecretRevealPermission,
  kryptonSecretUpdatePermission,
} from '@krypton/plugin-krypton-common';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import { join } from 'node:path';
import { Answer, exchange } from './clients';
import { ProfileWindow, monotonicUs, summarizeCpuProfile } from './cpuProfile';
import {
  DeployedBackend,
  buildDeployedBackend,
  serverTimingOf,
  startDeployedBackend,
} from './deployedBackend';
import {
  Sample,
  formatColumns,
  formatTable,
  median,
  percentileOf,
} from './measure';

const WARMUP = 20;
const CLIENTS = 12;
const LOAD_SECONDS = 30;
const RUNS = 150;
const PHASES = ['auth', 'user', 'permission', 'kube', 'audit', 'app'];

interface Op {
  name: string;
  baseline?: string;
  run(): Promise<Answer>;
}

/**
 * The example backend as it is deployed (built, NODE_ENV=production, over HTTP, with the real
 * auth, permission, catalog and notifications backends and the auditor on the root logger),
 * against raw keep-alive requests that a user's own kubectl would send (their own token, no
 * impersonation) to the same apiserver. Every operation runs once per round, interleaved, so that
 * a slower stretch of the machine falls on all of them alike.
 */
describe('the example backend as deployed', () => {
  const ns = useTestNamespace('krypton-deployed');
  const admin = new ClusterAdmin();
  let at20: DeployedBackend;
  let at100: DeployedBackend;
  const backendAgent = new http.Agent({ keepAlive: true });
  let kubeAgent: https.Agent;
  // With KRYPTON_BENCH_CPU_PROFILE=<dir>, the backends write CPU profiles there when they stop;
  // the load phases' stretches of them are summarized then.
  const profileDir = process.env.KRYPTON_BENCH_CPU_PROFILE;
  const profilesBefore = new Set<string>();
  const loadWindows: Array<ProfileWindow & { updates: number }> = [];
  const profiles = () =>
    profileDir
      ? readdirSync(profileDir).filter(f => f.endsWith('.cpuprofile'))
      : [];

  /** Krypton's routes for the bench namespace's Secrets, as the guest of one backend. */
  const kryptonSecrets = (backend: DeployedBackend) => {
    const headers = { Authorization: `Bearer ${backend.guestToken}` };
    const url = (name: string) =>
      `${backend.url}/api/krypton/namespaces/${ns.name}/secrets/${name}`;
    const read = async <T>(path: string): Promise<T> =>
      JSON.parse(
        (
          await exchange(path, { agent: backendAgent, headers, expect: 200 })
        ).body.toString('utf8'),
      );
    return {
      url,
      headers,
      summary: (name: string) =>
        read<{ resourceVersion: string; version: number }>(
          `${url(name)}/summary`,
        ),
      versions: (name: string) =>
        read<{ items: Array<{ version: number }> }>(`${url(name)}/versions`),
      /** A data-changing update from revision `rv`. */
      update: (
        name: string,
        rv: string,
        value: string,
        expect: number | number[] = 200,
      ) =>
        exchange(url(name), {
          agent: backendAgent,
          method: 'PUT',
          headers,
          body: JSON.stringify({
            resourceVersion: rv,
            data: { user: 'app', password: value },
          }),
          expect,
        }),
    };
  };

  beforeAll(async () => {
    profiles().forEach(f => profilesBefore.add(f));
    const dir = await buildDeployedBackend();
    at20 = await startDeployedBackend(dir, 'limit20', { historyLimit: 20 });
    at100 = await startDeployedBackend(dir, 'limit100', { historyLimit: 100 });
    kubeAgent = new https.Agent({
      keepAlive: true,
      ca: readFileSync(testClusterState().caFile),
    });
    for (const name of ['user:default/guest', 'alice']) {
      await admin.grantSecrets(ns.name, { kind: 'User', name });
    }
    const managed = { 'krypton.io/managed-by': 'krypton' };
    for (const name of ['get', 'at-limit', 'restore', 'under-0', 'under-1']) {
      await admin.createSecret(ns.name, {
        metadata: { name, labels: managed },
        stringData: { user: 'app', password: 'x'.repeat(64) },
      });
    }
    await admin.createSecret(ns.name, {
      metadata: { name: 'floor' },
      stringData: { user: 'app', password: 'x'.repeat(64) },
    });
    await admin.createSecret(ns.name, {
      metadata: { name: 'raw' },
      stringData: { user: 'app', password: 'x'.repeat(64) },
    });
  }, 600_000);
  afterAll(async () => {
    await at20?.stop();
    await at100?.stop();
    admin.close();
    backendAgent.destroy();
    kubeAgent?.destroy();
    // Each backend's profile is the one that spent more CPU in its own load phase.
    for (const file of profiles().filter(f => !profilesBefore.has(f))) {
      const path = join(profileDir!, file);
      const [busiest] = loadWindows
        .map(w => ({
          w,
          cpu: summarizeCpuProfile(path, w, { top: 0 }).cpuMs,
        }))
        .sort((a, b) => b.cpu - a.cpu);
      if (!busiest) continue;
      const { text } = summarizeCpuProfile(path, busiest.w, {
        top: 25,
        perUnit: { count: busiest.w.updates, unit: 'update' },
      });
      process.stdout.write(`\n${text}\n`);
    }
  });

  it('GET, update and restore against raw requests, split by phase', async () => {
    const state = testClusterState();
    const alice = kubeConfigFor('alice');
    if (!alice)
      throw new Error("the bench needs the local control plane's token users");
    const aliceToken = alice.getCurrentUser()!.token!;
    const rawUrl = (name: string) =>
      `${state.server}/api/v1/namespaces/${ns.name}/secrets/${name}`;
    const kryptonUrl = (backend: DeployedBackend, name: string) =>
      kryptonSecrets(backend).url(name);
    const asAlice = { Authorization: `Bearer ${aliceToken}` };
    const asGuest = (backend: DeployedBackend) =>
      kryptonSecrets(backend).headers;
    const json = (a: Answer) => JSON.parse(a.body.toString('utf8'));
    let n = 0;

    let rawRv = json(
      await exchange(rawUrl('raw'), {
        agent: kubeAgent,
        headers: asAlice,
        expect: 200,
      }),
    ).metadata.resourceVersion as string;
    const rawPut = async () => {
      const answer = await exchange(rawUrl('raw'), {
        agent: kubeAgent,
        method: 'PUT',
        headers: asAlice,
        body: JSON.stringify({
          metadata: { name: 'raw', resourceVersion: rawRv },
          stringData: { user: 'app', password: `raw-${n++}` },
        }),
        expect: 200,
      });
      rawRv = json(answer).metadata.resourceVersion;
      return answer;
    };

    /** A data-changing PUT through Krypton, each from the revision the previous one returned. */
    const updater = (backend: DeployedBackend, names: string[]) => {
      const secrets = kryptonSecrets(backend);
      const rv = new Map<string, string>();
      let turn = 0;
      return async () => {
        const name = names[turn++ % names.length];
        if (!rv.has(name)) {
          rv.set(name, (await secrets.summary(name)).resourceVersion);
        }
        const answer = await secrets.update(
          name,
          rv.get(name)!,
          `krypton-${n++}`,
        );
        rv.set(name, json(answer).resourceVersion);
        return answer;
      };
    };
    // Two Secrets share the updates under the limit, so that neither reaches 100 versions.
    const putUnder = updater(at100, ['under-0', 'under-1']);
    const putAt = updater(at20, ['at-limit']);
    const fill = updater(at20, ['restore']);
    for (let i = 0; i < 21; i++) {
      await putAt();
      await fill();
    }
    let restored = await kryptonSecrets(at20).summary('restore');
    // The newest snapshot holds the state before the last change, so each restore flips between
    // two values and always changes data.
    const restore = async () => {
      const answer = await exchange(`${kryptonUrl(at20, 'restore')}/restore`, {
        agent: backendAgent,
        method: 'POST',
        headers: asGuest(at20),
        body: JSON.stringify({
          version: restored.version - 1,
          resourceVersion: restored.resourceVersion,
        }),
        expect: 200,
      });
      restored = json(answer);
      return answer;
    };

    // The floors: the round trips that the spec and Backstage require, sent alone from here.
    // Kubernetes requests go as Krypton sends them: Krypton's token, impersonating the guest.
    const kryptonToken = kubeConfigFor('krypton').getCurrentUser()!.token!;
    const impersonated = {
      Authorization: `Bearer ${kryptonToken}`,
      'Impersonate-User': 'user:default/guest',
      'Impersonate-Group': ['group:default/team-a'],
    };
    const impersonatedGet = (name: string) =>
      exchange(rawUrl(name), {
        agent: kubeAgent,
        headers: impersonated,
        expect: 200,
      });
    /**
     * One request to the permission backend with the permissions that Krypton asks together. The
     * backend asks on the guest's behalf (a plugin token that it signs, wrapping the guest's
     * token) and without a resource; a user's own token may ask for resource permissions only
     * with a resource ref, so this one names the Secret. The example's policy allows everything,
     * so the ref changes no work behind it.
     */
    const permissionRequest = (
      backend: DeployedBackend,
      permissions: Array<typeof kryptonSecretReadPermission>,
      name: string,
    ) =>
      exchange(`${backend.url}/api/permission/authorize`, {
        agent: backendAgent,
        method: 'POST',
        headers: asGuest(backend),
        body: JSON.stringify({
          items: permissions.map(permission => ({
            id: randomUUID(),
            resourceRef: `local/${ns.name}/${name}`,
            permission,
          })),
        }),
        expect: 200,
      });
    const signIn = (backend: DeployedBackend) =>
      exchange(`${backend.url}/api/krypton/config`, {
        agent: backendAgent,
        headers: asGuest(backend),
        expect: 200,
      });
    const valuePermissions = [
      kryptonSecretReadPermission,
      kryptonSecretRevealPermission,
    ];
    /** A GET's floor: the sign-in check, then the Kubernetes GET beside the permission request. */
    const floorGet = async () => {
      await signIn(at20);
      const [answer] = await Promise.all([
        impersonatedGet('get'),
        permissionRequest(at20, valuePermissions, 'get'),
      ]);
      return answer;
    };

    // The floor of an update under the limit: the round trips the spec orders one after another
    // (read the live Secret, save the snapshot, list the history's metadata for retention and
    // the archive checks, replace the live Secret), sent raw and impersonated as Krypton sends them.
    // With Backstage's part, the sign-in check comes first and the permission request (the update
    // and the reveal of the answer, in one) runs beside the live read, as in Krypton.
    let floorN = 0;
    const floorUpdate = (withBackstage: boolean) => async () => {
      const [read] = await (withBackstage
        ? signIn(at100).then(() =>
            Promise.all([
              impersonatedGet('floor'),
              permissionRequest(
                at100,
                [kryptonSecretUpdatePermission, ...valuePermissions],
                'floor',
              ),
            ]),
          )
        : Promise.all([impersonatedGet('floor')]));
      const live = json(read);
      // Four histories, two per floor row, as under the limit, so that no list grows past 100.
      const bucket = `b${floorN % 4}`;
      await exchange(`${state.server}/api/v1/namespaces/${ns.name}/secrets`, {
        agent: kubeAgent,
        method: 'POST',
        headers: impersonated,
        body: JSON.stringify({
          metadata: {
            name: `floor-h-${floorN}`,
            labels: { 'krypton-bench/floor': bucket },
          },
          immutable: true,
          data: live.data,
        }),
        expect: 201,
      });
      await exchange(
        `${state.server}/api/v1/namespaces/${ns.name}/secrets?labelSelector=krypton-bench%2Ffloor%3D${bucket}&limit=100`,
        {
          agent: kubeAgent,
          headers: {
            ...impersonated,
            Accept:
              'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
          },
          expect: 200,
        },
      );
      return exchange(rawUrl('floor'), {
        agent: kubeAgent,
        method: 'PUT',
        headers: impersonated,
        body: JSON.stringify({
          metadata: {
            name: 'floor',
            resourceVersion: live.metadata.resourceVersion,
          },
          stringData: { user: 'app', password: `floor-${floorN++}` },
        }),
        expect: 200,
      });
    };

    const RAW_GET = 'raw GET (own token, keep-alive)';
    const RAW_PUT = 'raw PUT (own token, keep-alive)';
    const ops: Op[] = [
      {
        name: RAW_GET,
        run: () =>
          exchange(rawUrl('get'), {
            agent: kubeAgent,
            headers: asAlice,
            expect: 200,
          }),
      },
      {
        name: 'backend GET /api/krypton/health (no sign-in)',
        baseline: RAW_GET,
        run: () =>
          exchange(`${at20.url}/api/krypton/health`, {
            agent: backendAgent,
            expect: 200,
          }),
      },
      {
        name: 'Krypton GET /config (sign-in only)',
        baseline: RAW_GET,
        run: () => signIn(at20),
      },
      {
        name: 'floor part: the GET, impersonated',
        baseline: RAW_GET,
        run: () => impersonatedGet('get'),
      },
      {
        name: 'floor part: the permission request',
        baseline: RAW_GET,
        run: () => permissionRequest(at20, valuePermissions, 'get'),
      },
      {
        name: 'floor: sign-in, then GET beside permission',
        baseline: RAW_GET,
        run: floorGet,
      },
      {
        name: 'Krypton GET secret (values)',
        baseline: RAW_GET,
        run: () =>
          exchange(kryptonUrl(at20, 'get'), {
            agent: backendAgent,
            headers: asGuest(at20),
            expect: 200,
          }),
      },
      {
        name: 'Krypton GET summary (metadata)',
        baseline: RAW_GET,
        run: () =>
          exchange(`${kryptonUrl(at20, 'get')}/summary`, {
            agent: backendAgent,
            headers: asGuest(at20),
            expect: 200,
          }),
      },
      { name: RAW_PUT, run: rawPut },
      {
        name: "floor: an update's 4 serial round trips, raw",
        baseline: RAW_PUT,
        run: floorUpdate(false),
      },
      {
        name: 'floor: sign-in + permission + the 4 trips',
        baseline: RAW_PUT,
        run: floorUpdate(true),
      },
      {
        name: 'Krypton PUT under the limit (100)',
        baseline: RAW_PUT,
        run: putUnder,
      },
      {
        name: 'Krypton PUT at the limit (20)',
        baseline: RAW_PUT,
        run: putAt,
      },
      {
        name: 'Krypton restore at the limit (20)',
        baseline: RAW_PUT,
        run: restore,
      },
    ];

    const samples = new Map(ops.map(op => [op.name, [] as number[]]));
    const phases = new Map(
      ops.map(op => [
        op.name,
        [] as Map<string, { ms: number; calls: number }>[],
      ]),
    );
    // Both backends' CPU across each operation; what an answer leaves behind (a log line, a
    // notification) lands in the next operation's share, which is small beside a request's.
    const cpu = new Map(ops.map(op => [op.name, 0]));
    const backendCpu = () => at20.cpuMs() + at100.cpuMs();
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const op of ops) {
        const cpu0 = backendCpu();
        const t0 = process.hrtime.bigint();
        const answer = await op.run();
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (round < WARMUP) continue;
        cpu.set(op.name, cpu.get(op.name)! + backendCpu() - cpu0);
        samples.get(op.name)!.push(ms);
        phases
          .get(op.name)!
          .push(serverTimingOf(answer.headers['server-timing']));
      }
    }
    const kryptonOps = ops.filter(op => op.name.startsWith('Krypton'));
    const cpuMs = kryptonOps.reduce((sum, op) => sum + cpu.get(op.name)!, 0);
    const kryptonRequests = RUNS * kryptonOps.length;

    const sample = (name: string): Sample => ({
      name,
      ms: samples.get(name)!,
    });
    // The GET's floor again from its parts' medians: the sign-in check, then the slower of the
    // Kubernetes GET and the permission request, which Krypton runs side by side.
    const p50 = (name: string) => median(samples.get(name)!);
    const getParts = {
      signIn: p50('Krypton GET /config (sign-in only)'),
      get: p50('floor part: the GET, impersonated'),
      permission: p50('floor part: the permission request'),
    };
    const getFloor =
      getParts.signIn + Math.max(getParts.get, getParts.permission);
    const getFloorByParts = `GET floor from its parts (p50): sign-in ${getParts.signIn.toFixed(
      2,
    )} + max(GET ${getParts.get.toFixed(
      2,
    )}, permission ${getParts.permission.toFixed(2)}) = ${getFloor.toFixed(
      2,
    )} ms (×${(getFloor / p50(RAW_GET)).toFixed(
      2,
    )} the raw GET); Krypton's GET is ${(
      p50('Krypton GET secret (values)') - getFloor
    ).toFixed(2)} ms above it`;
    const splitRows = kryptonOps.map(op => {
      const all = phases.get(op.name)!;
      const client = median(samples.get(op.name)!);
      const total = median(all.map(p => p.get('total')?.ms ?? 0));
      const cells = PHASES.map(phase =>
        median(all.map(p => p.get(phase)?.ms ?? 0)).toFixed(2),
      );
      const trips = median(all.map(p => p.get('kube')?.calls ?? 0));
      const asks = median(all.map(p => p.get('permission')?.calls ?? 0));
      return [
        op.name,
        client.toFixed(2),
        (client - total).toFixed(2),
        ...cells,
        trips,
        asks,
        (cpu.get(op.name)! / RUNS).toFixed(1),
      ];
    });

    process.stdout.write(
      `\n${formatTable(
        `The example backend as deployed, ${new Date().toISOString()}, ${
          os.cpus().length
        } cores, Node ${
          process.version
        }: ${RUNS} interleaved rounds after ${WARMUP} (ratios against the raw request of the same kind)`,
        ops.map(op => ({
          sample: sample(op.name),
          baseline: op.baseline ? sample(op.baseline) : undefined,
        })),
      )}\n\n${formatColumns(
        "Where the time goes (medians of each phase, ms, from the Server-Timing header): \"outside\" is HTTP and Backstage's middleware in front of Krypton's router (token check, rate limit, CORS, helmet); auth is Krypton's own credentials read; concurrent calls of one phase count once, and phases that overlap each other (the permission check runs beside the live read) each count in full; trips are Kubernetes requests, asks requests to the permission backend; CPU is both backends' CPU time per request",
        ['operation', 'client', 'outside', ...PHASES, 'trips', 'asks', 'CPU'],
        splitRows,
      )}\n\n${getFloorByParts}\n\nBackend CPU: ${(
        cpuMs / kryptonRequests
      ).toFixed(
        2,
      )} ms per Krypton request on average over both backends (${kryptonRequests} requests, ${cpuMs.toFixed(
        0,
      )} ms of CPU; reads, updates and restores mixed)\n`,
    );
  });

  it('throughput under load: 12 clients for 30 s, half racing on one Secret', async () => {
    const state = testClusterState();
    const alice = kubeConfigFor('alice');
    if (!alice)
      throw new Error("the bench needs the local control plane's token users");
    const asAlice = {
      Authorization: `Bearer ${alice.getCurrentUser()!.token!}`,
    };
    const managed = { 'krypton.io/managed-by': 'krypton' };
    const names = (prefix: string) => [
      `${prefix}-hot`,
      ...Array.from({ length: CLIENTS / 2 }, (_, i) => `${prefix}-own-${i}`),
    ];
    for (const prefix of ['load-raw', 'load-20', 'load-100']) {
      for (const name of names(prefix)) {
        await admin.createSecret(ns.name, {
          metadata: {
            name,
            labels: prefix === 'load-raw' ? {} : managed,
          },
          stringData: { user: 'app', password: 'x'.repeat(64) },
        });
      }
    }

    interface Target {
      name: string;
      read(secret: string): Promise<string>;
      write(secret: string, rv: string, value: string): Promise<Answer>;
      backend?: DeployedBackend;
      historyExact?(secret: string): Promise<boolean>;
    }
    const kubeSecretUrl = (secret: string) =>
      `${state.server}/api/v1/namespaces/${ns.name}/secrets/${secret}`;
    const raw: Target = {
      name: 'raw PUT (own token)',
      async read(secret) {
        const a = await exchange(kubeSecretUrl(secret), {
          agent: kubeAgent,
          headers: asAlice,
          expect: 200,
        });
        return JSON.parse(a.body.toString()).metadata.resourceVersion;
      },
      write: (secret, rv, value) =>
        exchange(kubeSecretUrl(secret), {
          agent: kubeAgent,
          method: 'PUT',
          headers: asAlice,
          body: JSON.stringify({
            metadata: { name: secret, resourceVersion: rv },
            stringData: { user: 'app', password: value },
          }),
          expect: [200, 409, 429, 500, 503],
        }),
    };
    const krypton = (backend: DeployedBackend, limit: number): Target => {
      const secrets = kryptonSecrets(backend);
      return {
        name: `Krypton update, history limit ${limit}`,
        backend,
        /** Whether the hot Secret's history holds exactly its newest `limit` versions, in order. */
        async historyExact(secret: string) {
          const live = await secrets.summary(secret);
          const { items } = await secrets.versions(secret);
          // A writer that lost the race after saving its snapshot leaves one of the live
          // version itself (the spec: history is pre-write captures).
          const newest = items[0]?.version ?? 0;
          return (
            (newest === live.version - 1 || newest === live.version) &&
            items.length === Math.min(limit, newest) &&
            items.every((item, i) => item.version === newest - i)
          );
        },
        read: async secret => (await secrets.summary(secret)).resourceVersion,
        write: (secret, rv, value) =>
          secrets.update(secret, rv, value, [200, 409, 429, 500, 503]),
      };
    };

    const rows: Array<Array<string | number>> = [];
    let rawRate = 0;
    for (const [target, prefix] of [
      [raw, 'load-raw'],
      [krypton(at20, 20), 'load-20'],
      [krypton(at100, 100), 'load-100'],
    ] as const) {
      const [hot, ...own] = names(prefix);
      const latencies: number[] = [];
      let ok = 0;
      let conflicts = 0;
      let failures = 0;
      let n = 0;
      const cpuBefore = target.backend?.cpuMs() ?? 0;
      const deadline = Date.now() + LOAD_SECONDS * 1000;
      const client = async (secret: string) => {
        let rv = await target.read(secret);
        while (Date.now() < deadline) {
          const t0 = process.hrtime.bigint();
          const answer = await target.write(secret, rv, `load-${n++}`);
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (answer.status === 200) {
            ok++;
            latencies.push(ms);
            const body = JSON.parse(answer.body.toString());
            rv = body.resourceVersion ?? body.metadata.resourceVersion;
          } else if (answer.status === 409) {
            conflicts++;
            rv = await target.read(secret);
          } else {
            failures++;
            rv = await target.read(secret);
          }
        }
      };
      const started = Date.now();
      const fromUs = monotonicUs();
      await Promise.all([
        ...Array.from({ length: CLIENTS / 2 }, () => client(hot)),
        ...own.map(secret => client(secret)),
      ]);
      const seconds = (Date.now() - started) / 1000;
      if (target.backend)
        loadWindows.push({
          name: `load phase of ${target.name}`,
          fromUs,
          toUs: monotonicUs(),
          updates: ok,
        });
      const rate = ok / seconds;
      if (target === raw) rawRate = rate;
      const cpu = target.backend ? target.backend.cpuMs() - cpuBefore : NaN;
      let exact = '';
      if (target.historyExact)
        exact = (await target.historyExact(hot)) ? 'yes' : 'NO';
      rows.push([
        target.name,
        rate.toFixed(1),
        target === raw ? '' : (rawRate / rate).toFixed(2),
        median(latencies).toFixed(1),
        percentileOf(latencies, 99).toFixed(1),
        conflicts,
        failures,
        target.backend ? (cpu / ok).toFixed(1) : '',
        exact,
      ]);
    }

    process.stdout.write(
      `\n${formatColumns(
        `Updates under load, ${new Date().toISOString()}: ${CLIENTS} clients for ${LOAD_SECONDS} s each, ${
          CLIENTS / 2
        } racing on one Secret and ${
          CLIENTS / 2
        } on a Secret each; a 409 reloads the revision and goes on. "× raw" is how many times more updates per second raw PUTs made; CPU is the backend's CPU time per successful update`,
        [
          'target',
          'updates/s',
          '× raw',
          'p50 ms',
          'p99 ms',
          '409s',
          'other failures',
          'CPU ms/update',
          'history exact',
        ],
        rows,
      )}\n`,
    );
  });
});
