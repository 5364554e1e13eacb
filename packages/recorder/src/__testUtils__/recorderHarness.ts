import {
  ClusterAdmin,
  binDir,
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  LiveGate,
  RestKubeGateway,
  createEngines,
  parseHistoryLimit,
} from '@krypton/core';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { kubeSend } from '../kubeSend';
import { LocalRecorder, startLocalRecorder } from '../local/localRecorder';

/**
 * describe, or describe.skip on an existing cluster (KRYPTON_TEST_KUBECONFIG): the recorder serves
 * on loopback with the control plane's own serving certificate (its SANs include 127.0.0.1), so
 * the API server verifies it with the CA it already has, and only the control plane that the test
 * run starts has those files.
 */
export const describeLocalCluster = process.env.KRYPTON_TEST_KUBECONFIG
  ? describe.skip
  : describe;

/** Krypton's engines, as a host in impersonation mode builds them, acting as the admin. */
export function kryptonEngines() {
  const admin = () => new RestKubeGateway(kubeSend(kubeConfigFor('admin')));
  return createEngines({
    mode: 'impersonation',
    gateways: { user: admin(), krypton: admin() },
    cluster: 'test',
    settings: {
      annotationPrefix: 'krypton.io',
      managedOnly: false,
      historyLimit: parseHistoryLimit('3'),
    },
    actor: 'user:default/alice',
  });
}

/** A gate that lets every request through: these tests are about the cluster, not the policy. */
export const allowAll: LiveGate = {
  permit: async () => () => {},
  admit: () => {},
};

export const b64 = (text: string) =>
  Buffer.from(text, 'utf8').toString('base64');
export const text = (value: string | undefined) =>
  Buffer.from(value ?? '', 'base64').toString('utf8');

/** What a data change of a probe Secret shows once a webhook configuration is in effect. */
export type Probe = 'recorded' | 'refused' | 'unrecorded';

/** One kept version of a Secret, with its values as text. */
export interface KeptVersion {
  version: number;
  by: string | undefined;
  via: string | undefined;
  sourceResourceVersion: string | undefined;
  /** Whether the snapshot is marked `krypton.io/final-state: "true"`: kept from a delete. */
  finalState: boolean;
  data: Record<string, string>;
}

/**
 * The recorder's test fixture, for a test file of its own: a namespace, the cluster admin, the
 * recorder as an installation runs it (startLocalRecorder: the bundled entry point under its own
 * ServiceAccount, serving on loopback with the control plane's own serving certificate, whose
 * SANs include 127.0.0.1, so the API server verifies it with the CA it already has), registered
 * from deploy/recorder/webhook.yaml for this namespace's Secrets, and the helpers that write and
 * read them.
 * Call it inside the test file's top-level describe: it registers that describe's hooks.
 */
export function useRecorderHarness(prefix: string) {
  const ns = useTestNamespace(prefix);
  const admin = new ClusterAdmin();
  let recorder: LocalRecorder | undefined;
  let webhook: string;
  const running = (): LocalRecorder => {
    if (!recorder) throw new Error('the recorder has not started');
    return recorder;
  };
  const log: Array<Record<string, unknown>> = [];

  const managed = (
    name: string,
    data: Record<string, string>,
    annotations: Record<string, string> = { 'krypton.io/version': '1' },
  ) => ({
    metadata: {
      name,
      labels: { 'krypton.io/managed-by': 'krypton' },
      annotations,
    },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  });

  const kubectl = (args: string[], input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile(
        join(binDir(), 'kubectl'),
        [
          '--kubeconfig',
          testClusterState().identities.admin.kubeconfig,
          '-n',
          ns.name,
          ...args,
        ],
        (err, stdout, stderr) =>
          err ? reject(new Error(stderr || err.message)) : resolve(stdout),
      );
      if (input !== undefined) child.stdin!.end(input);
    });

  /**
   * Registers deploy/recorder/webhook.yaml for this namespace only (other test files share the
   * API server), calling the recorder itself (register() waits until it is called) or a `url`
   * that a test points elsewhere, until a probe's change shows `probe`.
   */
  async function register(
    options:
      | { url?: undefined }
      | {
          url: string;
          failurePolicy?: 'Fail' | 'Ignore';
          /** What a data change of a probe Secret shows once the configuration is in effect. */
          probe: Exclude<Probe, 'recorded'>;
        },
  ) {
    await running().register({
      name: webhook,
      namespace: ns.name,
      ...(options.url === undefined
        ? {}
        : { url: options.url, failurePolicy: options.failurePolicy }),
    });
    if (options.url !== undefined) await untilInEffect(options.probe);
  }

  /**
   * The API server applies a new webhook configuration a moment after it is written: change a
   * probe Secret until the change shows the configuration's effect.
   */
  async function untilInEffect(expected: Probe) {
    const probe = `probe-${Math.random().toString(36).slice(2, 8)}`;
    await admin.createSecret(ns.name, managed(probe, { v: '0' }));
    try {
      // Each kind of answer is possible under only one of the configurations involved, so the
      // first answer of the expected kind shows that the new one is in effect.
      let counter = '1';
      for (let i = 0; i < 100; i++) {
        const res = await admin.request({
          method: 'PATCH',
          path: `/api/v1/namespaces/${ns.name}/secrets/${probe}`,
          body: { data: { v: b64(String(i + 1)) } },
          contentType: 'application/merge-patch+json',
        });
        const after = (
          res.body as { metadata?: { annotations?: Record<string, string> } }
        ).metadata?.annotations?.['krypton.io/version'];
        let seen: Probe = 'refused';
        if (res.status === 200)
          seen = after === counter ? 'unrecorded' : 'recorded';
        if (res.status === 200 && after) counter = after;
        if (seen === expected) return;
        await new Promise(r => setTimeout(r, 50));
      }
      throw new Error(
        `the webhook configuration did not take effect (${expected})`,
      );
    } finally {
      await admin.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/${probe}`,
      });
    }
  }

  /** The snapshots bound to one source UID, by version, with their values as text. */
  async function historyOf(uid: string): Promise<KeptVersion[]> {
    const all = await admin.snapshots(ns.name);
    return all
      .filter(s => s.metadata.annotations?.['krypton.io/source-uid'] === uid)
      .map(s => ({
        version: Number(s.metadata.annotations?.['krypton.io/version']),
        by: s.metadata.annotations?.['krypton.io/snapshot-by'],
        via: s.metadata.annotations?.['krypton.io/snapshot-via'],
        sourceResourceVersion:
          s.metadata.annotations?.['krypton.io/source-resource-version'],
        finalState:
          s.metadata.annotations?.['krypton.io/final-state'] === 'true',
        data: Object.fromEntries(
          Object.entries(s.data ?? {}).map(([k, v]) => [k, text(v)]),
        ),
      }))
      .sort((a, b) => a.version - b.version);
  }

  /** The snapshots of one live Secret, by version, with their values as text. */
  async function history(name: string): Promise<KeptVersion[]> {
    const live = await admin.secret(ns.name, name);
    return historyOf(live.metadata.uid);
  }

  beforeAll(async () => {
    webhook = `krypton-recorder-${ns.name}`;
    const state = testClusterState();
    recorder = await startLocalRecorder(
      {
        server: state.server,
        caFile: state.caFile,
        dir: state.dir,
        adminKubeconfig: state.identities.admin.kubeconfig,
      },
      { historyLimit: 3, onLog: line => log.push(line) },
    );
    await register({});
  });

  afterAll(async () => {
    await recorder?.stop();
    admin.close();
  });

  /** A kubectl merge patch of the Secret's `password`, with kubectl's extra arguments. */
  async function patchValue(name: string, value: string, extra: string[] = []) {
    return kubectl([
      'patch',
      'secret',
      name,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ data: { password: b64(value) } }),
      ...extra,
    ]);
  }

  const manifest = (name: string, value: string, version: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      ...managed(name, { password: value }, { 'krypton.io/version': version }),
    });

  return {
    ns,
    admin,
    /** Every line the recorder logged, in order. */
    log,
    /** The recorder; it starts in the harness's beforeAll. */
    recorder: running,
    managed,
    kubectl,
    register,
    history,
    historyOf,
    patchValue,
    manifest,
  };
}
