import {
  ClusterAdmin,
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  LocalRecorder,
  RecorderLogLine,
  startLocalRecorder,
} from '@krypton/recorder/local';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { send } from './clients';
import {
  formatColumns,
  formatTable,
  median,
  mib,
  percentileOf,
} from './measure';

// A raw PUT that changes a recorded Secret's data, with the recorder's webhook registered against
// the same PUT without it, in one run on one apiserver; and the recorder's own cost per write.
// The recorder runs as deployed: the bundled entry point under its own ServiceAccount, with
// deploy/recorder's webhook configuration, and the default history limit (20), so that once
// the history is full every recorded write also prunes one snapshot.
describe('recorder', () => {
  const ns = useTestNamespace('krypton-bench-rec');
  const admin = new ClusterAdmin();
  let recorder: LocalRecorder;
  const reviews: RecorderLogLine[] = [];
  const webhook = () => `krypton-recorder-bench-${ns.name}`;

  beforeAll(async () => {
    const state = testClusterState();
    recorder = await startLocalRecorder(
      {
        server: state.server,
        caFile: state.caFile,
        dir: state.dir,
        adminKubeconfig: state.identities.admin.kubeconfig,
      },
      { onLog: line => line.event === 'review' && reviews.push(line) },
    );
    for (const name of ['unrecorded', 'recorded']) {
      await admin.createSecret(ns.name, {
        metadata: { name, labels: { 'krypton.io/managed-by': 'krypton' } },
        stringData: { user: 'app', password: 'x'.repeat(64) },
      });
    }
  });
  afterAll(async () => {
    await recorder?.stop();
    admin.close();
  });

  it('a raw PUT of a recorded Secret with the recorder against without it', async () => {
    const state = testClusterState();
    const token = kubeConfigFor('admin').getCurrentUser()!.token!;
    const agent = new https.Agent({
      keepAlive: true,
      ca: readFileSync(state.caFile),
    });
    const headers = { Authorization: `Bearer ${token}` };
    let n = 0;
    /** A PUT of the whole Secret with new data and its current revision, as kubectl replace. */
    const put = (name: string) => async () => {
      const url = `${state.server}/api/v1/namespaces/${ns.name}/secrets/${name}`;
      const current = JSON.parse(
        (await send(url, { agent, headers, expect: 200 })).toString('utf8'),
      );
      const body = JSON.stringify({
        ...current,
        data: {
          ...current.data,
          password: Buffer.from(`v${++n}`).toString('base64'),
        },
      });
      const t0 = process.hrtime.bigint();
      await send(url, { agent, headers, method: 'PUT', body, expect: 200 });
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    // Only the PUT is timed, not the GET that fetches the revision to write at.
    const timedPut = async (name: string, runs: number, warmup: number) => {
      const write = put(name);
      for (let i = 0; i < warmup; i++) await write();
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) ms.push(await write());
      return ms;
    };

    const without = {
      name: 'raw PUT, no webhook',
      ms: await timedPut('unrecorded', 300, 30),
    };
    await recorder.register({ name: webhook(), namespace: ns.name });
    // Past the history limit before timing: the steady state prunes one snapshot per write.
    await timedPut('recorded', 30, 0);
    const cpuBefore = processCpuMs(recorder.pid);
    const reviewsBefore = reviews.length;
    const recorded = {
      name: 'raw PUT, recorded',
      ms: await timedPut('recorded', 300, 0),
    };
    const cpuMs = processCpuMs(recorder.pid) - cpuBefore;
    const timed = reviews.slice(reviewsBefore);
    agent.destroy();

    const outcomes = new Set(timed.map(r => r.outcome));
    expect([...outcomes]).toEqual(['recorded']);
    const reviewMs = timed.map(r => Number(r.ms));
    const ownMs = timed.map(r => Number(r.ms) - Number(r.kubeMs));
    // eslint-disable-next-line no-console
    console.log(
      [
        formatTable(
          `Raw PUT of a Secret whose data changes, ${ns.name} (× against the PUT without the webhook)`,
          [{ sample: without }, { sample: recorded, baseline: without }],
        ),
        '',
        formatColumns(
          'The recorder per recorded write (300 writes)',
          ['figure', 'value'],
          [
            [
              'CPU time (user + system), ms per write',
              (cpuMs / timed.length).toFixed(2),
            ],
            [
              'review time in the recorder, p50 ms',
              median(reviewMs).toFixed(2),
            ],
            [
              'review time in the recorder, p95 ms',
              percentileOf(reviewMs, 95).toFixed(2),
            ],
            [
              'of which its own work (not waiting for Kubernetes), p50 ms',
              median(ownMs).toFixed(2),
            ],
            [
              'of which its own work, p95 ms',
              percentileOf(ownMs, 95).toFixed(2),
            ],
            [
              'resident memory after the run, MiB',
              mib(processRssBytes(recorder.pid)),
            ],
          ],
          [
            'CPU time is the whole process: its TLS, the review, and the client side of its',
            'Kubernetes requests (GET live, POST snapshot, GET history, DELETE of the pruned one).',
            'Review time is from the request to the answer, its Kubernetes round trips included;',
            'its own work is the review time less the time its Kubernetes requests were waited for.',
          ],
        ),
      ].join('\n'),
    );
  });
});

/** The kernel's clock ticks per second (USER_HZ), 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/** utime + stime of a process from /proc, in milliseconds. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after it are space-separated.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}

function processRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return kib ? Number(kib[1]) * 1024 : NaN;
}
