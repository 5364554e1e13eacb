import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { cpus, totalmem } from 'node:os';
import {
  ClusterAdmin,
  kubeConfigFor,
  testClusterState,
} from '@krypton/kube-testenv';
import {
  MANAGED_NAMESPACES_MAX,
  METADATA_LIST_ACCEPT,
  TABLE_ACCEPT,
} from '@krypton/core';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '@krypton/plugin-krypton-backend/src/__testUtils__/testBackend';
import { bounded, readRawList, sendJson } from './clients';
import { Sample, formatColumns, toRow } from './measure';

/*
 * The platform page's first view (GET /managed-namespaces) with as many namespaces as it looks in:
 * 100 namespaces of 5 managed Secrets each, read by a user who may list all of them. Against the
 * Kubernetes requests it makes, sent raw with the same impersonation (the namespace list, then one
 * Table list of managed Secrets per namespace, four at a time), and against the picker's own
 * GET /namespaces. Times are printed, never asserted.
 */

const NAMESPACES = MANAGED_NAMESPACES_MAX;
const SECRETS_EACH = 5;
const USER = 'user:default/root';
const GROUP = 'group:default/krypton-admins';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const GRANT = 'krypton-bench-managed-namespaces';

const now = () => Number(process.hrtime.bigint()) / 1e6;

describe('the first view of 100 namespaces', () => {
  const admin = new ClusterAdmin();
  const backendAgent = new http.Agent({ keepAlive: true });
  let kubeAgent: https.Agent;
  let krypton: KryptonTestBackend;
  // "0" sorts before every other namespace, so these are the ones the first view looks in.
  const names = Array.from(
    { length: NAMESPACES },
    (_, i) => `0bench-mns-${String(i).padStart(3, '0')}`,
  );

  beforeAll(async () => {
    kubeAgent = new https.Agent({
      keepAlive: true,
      ca: readFileSync(testClusterState().caFile),
    });
    krypton = await startKryptonBackend();
    await admin.request({
      method: 'POST',
      path: `${RBAC}/clusterrolebindings`,
      body: {
        metadata: { name: GRANT },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'cluster-admin',
        },
        subjects: [
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: USER },
        ],
      },
    });
    await bounded(names, 8, async ns => {
      await admin.createNamespace(ns);
      for (let i = 0; i < SECRETS_EACH; i++) {
        await admin.createSecret(ns, {
          metadata: {
            name: `app-${i}`,
            labels: { 'krypton.io/managed-by': 'krypton' },
            annotations: { 'krypton.io/version': '1' },
          },
          stringData: { password: `value-${i}` },
        });
      }
    });
    await admin.untilAllowed(
      { user: USER, groups: [GROUP] },
      { verb: 'list', resource: 'secrets', namespace: names[0] },
    );
  }, 600_000);

  afterAll(async () => {
    await krypton.stop();
    await admin
      .request({
        method: 'DELETE',
        path: `${RBAC}/clusterrolebindings/${GRANT}`,
      })
      .catch(() => undefined);
    admin.close();
    backendAgent.destroy();
    kubeAgent.destroy();
  }, 120_000);

  it('answers the first view: Krypton against its own requests sent raw', async () => {
    const state = testClusterState();
    const token = kubeConfigFor('krypton').getCurrentUser()!.token!;
    const rawHeaders = {
      Authorization: `Bearer ${token}`,
      'Impersonate-User': USER,
      'Impersonate-Group': [GROUP],
    };
    const raw = async () => {
      // The namespace list in Krypton's pages of 100, metadata only.
      const all: string[] = [];
      await readRawList(
        `${state.server}/api/v1/namespaces`,
        new URLSearchParams({ limit: '100' }),
        {
          agent: kubeAgent,
          headers: { ...rawHeaders, Accept: METADATA_LIST_ACCEPT },
        },
        list => {
          const page = list as { items: Array<{ metadata: { name: string } }> };
          all.push(...page.items.map(ns => ns.metadata.name));
        },
      );
      const first = all.sort().slice(0, NAMESPACES);
      let counted = 0;
      await bounded(first, 4, async ns => {
        const query = new URLSearchParams({
          labelSelector:
            'krypton.io/managed-by=krypton,krypton.io/kind!=history,krypton.io/kind!=proposal',
          limit: '500',
          includeObject: 'Metadata',
        });
        const table = await sendJson<{ rows: unknown[] }>(
          `${state.server}/api/v1/namespaces/${ns}/secrets?${query}`,
          {
            agent: kubeAgent,
            headers: { ...rawHeaders, Accept: TABLE_ACCEPT },
            expect: 200,
          },
        );
        counted += table.rows.length;
      });
      return counted;
    };
    const kryptonGet = <T>(path: string) =>
      sendJson<T>(`${krypton.url}/api/krypton${path}`, {
        agent: backendAgent,
        headers: { Authorization: as('root') },
        expect: 200,
      });
    const firstView = async () => {
      const body = await kryptonGet<{
        items: Array<{ secrets: number | null }>;
      }>('/managed-namespaces');
      return body.items.reduce((sum, item) => sum + (item.secrets ?? 0), 0);
    };
    const picker = async () =>
      (await kryptonGet<{ items: string[] }>('/namespaces')).items.length;

    const ops = [
      {
        name: 'raw: namespace list + 100 Table lists, 4 at once (baseline)',
        run: raw,
      },
      { name: 'Krypton GET /managed-namespaces (first view)', run: firstView },
      { name: 'Krypton GET /namespaces (the picker)', run: picker },
    ];
    // Untimed: the first view counts every Secret of the namespaces it looks in.
    const counted = await firstView();
    if (counted !== NAMESPACES * SECRETS_EACH)
      throw new Error(`the first view counted ${counted} Secrets`);

    const WARMUP = 3;
    const RUNS = 15;
    const samples = new Map<string, Sample>(
      ops.map(op => [op.name, { name: op.name, ms: [] }]),
    );
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const op of ops) {
        const t0 = now();
        await op.run();
        if (round >= WARMUP) samples.get(op.name)!.ms.push(now() - t0);
      }
    }
    const baseline = samples.get(ops[0].name)!;
    const rows = ops.map(op => {
      const row = toRow(samples.get(op.name)!, baseline);
      return [
        op.name,
        row.p50.toFixed(1),
        row.p95.toFixed(1),
        row.ratioP50!.toFixed(2),
        row.ratioP95!.toFixed(2),
      ];
    });
    process.stdout.write(
      `\n${formatColumns(
        `First view of ${NAMESPACES} namespaces with ${SECRETS_EACH} managed Secrets each, ${new Date().toISOString()}, ${
          cpus().length
        } cores, ${(totalmem() / 2 ** 30).toFixed(
          0,
        )} GiB; ${RUNS} interleaved runs after ${WARMUP} warm-ups; × against the baseline`,
        ['operation', 'p50 ms', 'p95 ms', '× p50', '× p95'],
        rows,
        [
          '',
          'Krypton makes the same requests as the baseline, and per namespace the gates of the Secret list (the permission policy, the access rules).',
        ],
      )}\n`,
    );
  }, 1_200_000);
});
