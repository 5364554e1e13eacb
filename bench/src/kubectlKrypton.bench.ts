import {
  ClusterAdmin,
  FaultProxy,
  binDir,
  loopbackServingCertificate,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  DEFAULT_ANNOTATION_PREFIX,
  hash32,
  historySelector,
  kryptonKeys,
} from '@krypton/core';
import {
  cli,
  grantCli,
  kubeconfigOf,
} from '@krypton/kubectl-krypton/src/__testUtils__/cli';
import { dump, load } from 'js-yaml';
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProgram } from './clients';
import { Sample, formatColumns, formatTable } from './measure';

/*
 * kubectl krypton as a user runs it: each operation is a whole process (start-up, kubeconfig,
 * TLS handshake, requests, output), the shipped single executable and the npm package's bin,
 * against kubectl and a plain Node client doing the same work, in one run on one apiserver. Timed
 * runs go straight to the apiserver; one more run of each goes through an HTTPS pass-through
 * proxy that counts its requests. Times are printed, never asserted.
 *
 * - history: `kubectl krypton history db` against `kubectl get` of the same objects: one
 *   label-selected list of the versions (the baseline), the live Secret and that list, and the
 *   live Secret and every kept version by name.
 * - restore: `kubectl krypton restore db <newest> --yes` against a raw restore script that sends
 *   the same requests as the terminal's restore with a plain HTTPS client (`rawRestore.js`).
 * - start-up: the executable's and the npm bin's `version` against `kubectl version --client`.
 */

/** Versions kept: the CLI's default history limit, so every restore also prunes one. */
const VERSIONS = 20;
/** The raw script's own history: versions 1 to 20 of db-raw, made directly. */
const RAW_VERSIONS = VERSIONS;
const RAW_OF = 'bench.krypton.io/raw-of';
const RAW_VERSION = 'bench.krypton.io/version';
const RUNS = 30;
const WARMUP = 3;

// The bench runs from source, never from a build.
// eslint-disable-next-line no-restricted-syntax
const RAW_RESTORE = join(__dirname, 'rawRestore.js');

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
/** A result table, apart from jest's own output. */
const print = (text: string) => process.stdout.write(`\n${text}\n`);

// The package's own build script, run as its `yarn dist` runs it.
// eslint-disable-next-line no-restricted-syntax
const { main: buildDist } =
  require('@krypton/kubectl-krypton/scripts/dist.js') as {
    main(argv: string[]): Promise<{ script: string; executable: string }>;
  };

/** A program and its arguments. */
type Program = [file: string, args: string[]];

interface Operation {
  name: string;
  /**
   * What one run executes, one program after another; called untimed before each run (a
   * restore's target is the newest version at that moment).
   */
  programs: () => Program[];
}

async function runAll(programs: Program[]): Promise<void> {
  for (const [file, args] of programs) await runProgram(file, args);
}

/**
 * Runs each operation once per round, in an order that rotates by round, so that drift in the
 * machine's load falls on every operation alike.
 */
async function interleaved(operations: Operation[]): Promise<Sample[]> {
  const samples = operations.map(op => ({ name: op.name, ms: [] as number[] }));
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (let k = 0; k < operations.length; k++) {
      const i = (round + k) % operations.length;
      const op = operations[i];
      const programs = op.programs();
      const t0 = process.hrtime.bigint();
      await runAll(programs);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (round >= WARMUP) samples[i].ms.push(ms);
    }
  }
  return samples;
}

describe('kubectl krypton', () => {
  const ns = useTestNamespace('krypton-bench-cli');
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let work: string;
  /** alice's kubeconfig, with the counting proxy as the cluster's address. */
  let countingKubeconfig: string;
  /** Whether programs go through the counting proxy; timed runs go straight to the apiserver. */
  let counting = false;
  const kubeconfig = () =>
    counting ? countingKubeconfig : kubeconfigOf('alice');
  const server = () => (counting ? proxy.url : testClusterState().server);
  let tokenFile: string;
  let built: { script: string; executable: string };
  const kubectlFile = () => join(binDir(), 'kubectl');
  const kubectlArgs = (args: string[]) => [
    '--kubeconfig',
    kubeconfig(),
    '--cache-dir',
    join(work, 'kubectl-cache'),
    '-n',
    ns.name,
    ...args,
  ];
  const cliArgs = (args: string[]) => [
    ...args,
    '--kubeconfig',
    kubeconfig(),
    '-n',
    ns.name,
  ];
  const node = process.execPath;

  /** The requests one run of an operation sends, as "METHOD path" with the namespace named. */
  async function requestsOf(op: Operation): Promise<string[]> {
    counting = true;
    try {
      const programs = op.programs();
      proxy.resetRecordings();
      await runAll(programs);
    } finally {
      counting = false;
    }
    return proxy.seen.map(line => line.split(ns.name).join('<ns>'));
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'krypton-bench-cli-'));
    // postject warns about each ELF section it does not know; the executable runs all the same.
    const quiet = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      built = await buildDist([]);
    } finally {
      quiet.mockRestore();
    }
    await grantCli(admin, ns.name, 'alice');
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile,
      serving: loopbackServingCertificate(),
    });
    const config = load(readFileSync(kubeconfigOf('alice'), 'utf8')) as {
      clusters: Array<{ cluster: { server: string } }>;
      users: Array<{ user: { token: string } }>;
    };
    for (const entry of config.clusters) entry.cluster.server = proxy.url;
    countingKubeconfig = join(work, 'kubeconfig');
    writeFileSync(countingKubeconfig, dump(config), { mode: 0o600 });
    tokenFile = join(work, 'token');
    writeFileSync(tokenFile, config.users[0].user.token, { mode: 0o600 });
    const data = (password: string) => ({
      user: b64('app'),
      password: b64(password),
      ca: b64('x'.repeat(1500)),
    });
    await admin.createSecret(ns.name, {
      metadata: { name: 'db', labels: { 'krypton.io/managed-by': 'krypton' } },
      data: data('v0'),
    });
    // The raw script's Secret and its history, in its own format.
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'db-raw',
        annotations: { [RAW_VERSION]: String(RAW_VERSIONS + 1) },
      },
      data: data(`v${RAW_VERSIONS}`),
    });
    for (let i = 1; i <= RAW_VERSIONS; i++) {
      await admin.createSecret(ns.name, {
        metadata: {
          name: `db-raw-v${i}`,
          labels: { [RAW_OF]: 'db-raw' },
          annotations: { [RAW_VERSION]: String(i) },
        },
        type: 'Opaque',
        immutable: true,
        data: data(`v${i - 1}`),
      });
    }
    // db's history: one Krypton edit per version, through the terminal's own engine.
    for (let i = 1; i <= VERSIONS; i++) {
      const answer = await cli('alice', ns.name, ['edit', 'db'], {
        edit: async path => {
          const text = readFileSync(path, 'utf8');
          writeFileSync(path, text.replace(/password: .*/, `password: v${i}`));
          return 0;
        },
      });
      if (answer.code !== 0) throw new Error(`edit ${i}: ${answer.stderr}`);
    }
    // Warms kubectl's discovery cache of each address, as a user's is after the first call.
    for (const viaProxy of [false, true]) {
      counting = viaProxy;
      await runProgram(kubectlFile(), kubectlArgs(['get', 'secret', 'db']));
    }
    counting = false;
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    admin.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** The table of an operation's timings, its request counts, and the requests of each. */
  function report(
    title: string,
    operations: Operation[],
    samples: Sample[],
    requests: string[][],
    notes: string[],
  ): string {
    return [
      formatTable(
        `${title} (${RUNS} runs each, whole processes; × the first row)`,
        samples.map(sample => ({ sample, baseline: samples[0] })),
      ),
      '',
      formatColumns(
        'requests per run, counted at the proxy',
        ['operation', 'requests'],
        operations.map((op, i) => [op.name, requests[i].length]),
        notes,
      ),
      '',
      ...operations.flatMap((op, i) => [
        `${op.name}:`,
        ...requests[i].map(line => `  ${line}`),
      ]),
    ].join('\n');
  }

  it('history against kubectl get of the same objects', async () => {
    const live = await admin.secret(ns.name, 'db');
    const selector = historySelector(
      kryptonKeys(DEFAULT_ANNOTATION_PREFIX),
      await hash32(live.metadata.uid),
    );
    const names = (await admin.listSecrets(ns.name, selector)).map(
      s => s.metadata.name,
    );
    const list = (): Program => [
      kubectlFile(),
      kubectlArgs(['get', 'secrets', '-l', selector, '-o', 'json']),
    ];
    const operations: Operation[] = [
      {
        name: 'kubectl get secrets -l <versions> -o json',
        programs: () => [list()],
      },
      {
        name: 'kubectl get secret db; kubectl get -l <versions>',
        programs: () => [
          [kubectlFile(), kubectlArgs(['get', 'secret', 'db', '-o', 'json'])],
          list(),
        ],
      },
      {
        name: 'kubectl get secret db <each version> -o json',
        programs: () => [
          [
            kubectlFile(),
            kubectlArgs(['get', 'secret', 'db', ...names, '-o', 'json']),
          ],
        ],
      },
      {
        name: 'kubectl-krypton history db (executable)',
        programs: () => [[built.executable, cliArgs(['history', 'db'])]],
      },
      {
        name: 'kubectl-krypton history db (npm bin)',
        programs: () => [[node, [built.script, ...cliArgs(['history', 'db'])]]],
      },
    ];
    const requests: string[][] = [];
    for (const op of operations) requests.push(await requestsOf(op));
    const samples = await interleaved(operations);
    print(
      report(
        `history of a Secret with ${names.length} versions`,
        operations,
        samples,
        requests,
        [
          'history reads the live Secret, the metadata-only list of its versions, and each version',
          '(4 at a time) to name the keys that each write changed. kubectl reads objects named one by',
          'one in series, under its client-side rate limit (5 requests/s after a burst of 10).',
        ],
      ),
    );
  });

  it('restore against a raw restore script', async () => {
    const history = JSON.parse(
      (
        await runProgram(
          built.executable,
          cliArgs(['history', 'db', '-o', 'json']),
        )
      ).stdout.toString('utf8'),
    ) as { versions: Array<{ version: number }> };
    // Each restore takes the newest version, which archives the live state as the next one.
    let newest = history.versions[0].version;
    let rawNewest = RAW_VERSIONS;
    const restoreNewest = (
      name: string,
      file: string,
      script: string[],
    ): Operation => ({
      name,
      programs: () => [
        [
          file,
          [...script, ...cliArgs(['restore', 'db', String(newest++), '--yes'])],
        ],
      ],
    });
    const raw: Operation = {
      name: 'raw restore script, the same requests',
      programs: () => [
        [
          node,
          [
            RAW_RESTORE,
            JSON.stringify({
              server: server(),
              ca: testClusterState().caFile,
              tokenFile,
              namespace: ns.name,
              name: 'db-raw',
              version: rawNewest++,
              limit: VERSIONS,
            }),
          ],
        ],
      ],
    };
    const operations = [
      raw,
      restoreNewest(
        'kubectl-krypton restore db <newest> --yes (executable)',
        built.executable,
        [],
      ),
      restoreNewest(
        'kubectl-krypton restore db <newest> --yes (npm bin)',
        node,
        [built.script],
      ),
    ];
    const requests: string[][] = [];
    for (const op of operations) requests.push(await requestsOf(op));
    const samples = await interleaved(operations);
    // The work was done: both histories are still at the limit, and each live Secret holds a
    // version's data, not a mix.
    const keys = kryptonKeys(DEFAULT_ANNOTATION_PREFIX);
    expect(
      await admin.listSecrets(
        ns.name,
        historySelector(
          keys,
          await hash32((await admin.secret(ns.name, 'db')).metadata.uid),
        ),
      ),
    ).toHaveLength(VERSIONS);
    expect(await admin.listSecrets(ns.name, `${RAW_OF}=db-raw`)).toHaveLength(
      VERSIONS,
    );
    print(
      report(
        `restore at the history limit (${VERSIONS}), with a prune`,
        operations,
        samples,
        requests,
        [
          'The fewest the spec allows a restore at the limit: 6 (the live Secret, the version, the',
          "snapshot's POST, the history list, the prune's DELETE, the PUT). The terminal adds its",
          'preview (the live Secret for the refusals, then the version read, which gates on the live',
          "Secret again) and a SelfSubjectReview for the snapshot's recorded username.",
        ],
      ),
    );
  });

  it('start-up against kubectl version --client', async () => {
    const operations: Operation[] = [
      {
        name: 'kubectl version --client',
        programs: () => [[kubectlFile(), ['version', '--client']]],
      },
      {
        name: 'kubectl-krypton version (executable)',
        programs: () => [[built.executable, ['version']]],
      },
      {
        name: 'kubectl-krypton version (npm bin)',
        programs: () => [[node, [built.script, 'version']]],
      },
      { name: 'node -e 0 (Node alone)', programs: () => [[node, ['-e', '0']]] },
    ];
    const samples = await interleaved(operations);
    print(
      [
        formatTable(
          `start-up (${RUNS} runs each, whole processes; no request is sent)`,
          samples.map(sample => ({ sample, baseline: samples[0] })),
        ),
        '',
        `single executable: ${(
          statSync(built.executable).size /
          1024 /
          1024
        ).toFixed(1)} MiB; npm bin's bundle: ${(
          statSync(built.script).size / 1024
        ).toFixed(0)} KiB`,
      ].join('\n'),
    );
  });
});
