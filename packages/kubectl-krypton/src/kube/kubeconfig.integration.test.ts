import { ClusterAdmin, useTestNamespace } from '@krypton/kube-testenv';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { cliRules, kubeconfigOf } from '../__testUtils__/cli';
import { EXIT } from '../cli/exitCodes';
import { run } from '../main';

interface TestKubeconfig {
  clusters: Array<{
    cluster: { server: string; 'certificate-authority': string };
  }>;
  users: Array<{ user: { token: string } }>;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// How kubectl krypton finds the cluster and the credentials, checked by what the real API server
// answers: merged KUBECONFIG files, relative paths, an exec credential plugin, refused
// credentials, and kubeconfigs it must refuse.
describe('kubectl krypton reads kubeconfigs as kubectl does', () => {
  const ns = useTestNamespace('krypton-cli-kc');
  let admin: ClusterAdmin;
  let dir: string;
  let alice: TestKubeconfig;

  async function cli(args: string[], env: NodeJS.ProcessEnv) {
    let stdout = '';
    let stderr = '';
    const stdin = new PassThrough();
    stdin.end();
    const code = await run(args, {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      stdin,
      stdinIsTerminal: false,
      stdoutIsTerminal: false,
      env: { HOME: dir, PATH: process.env.PATH, ...env },
      edit: async () => 1,
    });
    return { code, stdout, stderr };
  }

  function file(name: string, config: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
    return path;
  }

  const cluster = () => ({
    server: alice.clusters[0].cluster.server,
    'certificate-authority': alice.clusters[0].cluster['certificate-authority'],
  });

  beforeAll(async () => {
    admin = new ClusterAdmin();
    dir = mkdtempSync(join(tmpdir(), 'krypton-cli-kubeconfig-'));
    alice = JSON.parse(readFileSync(kubeconfigOf('alice'), 'utf8'));
    await admin.grant(
      ns.name,
      'kubectl-krypton-alice',
      { kind: 'User', name: 'alice' },
      cliRules(),
    );
    await admin.untilAllowed(
      { user: 'alice', groups: ['team-a'] },
      { namespace: ns.name, verb: 'list', resource: 'secrets' },
    );
    await admin.createSecret(ns.name, {
      metadata: { name: 'app', labels: { 'krypton.io/managed-by': 'krypton' } },
      data: { key: b64('value') },
    });
  });
  afterAll(() => {
    admin?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('merges the files of KUBECONFIG, the first to name an entry winning, and takes the namespace of the context', async () => {
    const first = file('first.yaml', {
      'current-context': 'work',
      contexts: [
        {
          name: 'work',
          context: { cluster: 'test', user: 'alice', namespace: ns.name },
        },
      ],
    });
    const second = file('second.yaml', {
      'current-context': 'elsewhere',
      clusters: [{ name: 'test', cluster: cluster() }],
      users: [{ name: 'alice', user: { token: alice.users[0].user.token } }],
      contexts: [{ name: 'work', context: { cluster: 'none', user: 'none' } }],
    });
    const answer = await cli(['get', 'app'], {
      KUBECONFIG: `${first}:${join(dir, 'missing')}:${second}`,
    });
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(EXIT.ok);
    expect(answer.stdout).toMatch(
      new RegExp(`^Namespace:\\s+${ns.name}$`, 'm'),
    );
  });

  it('authenticates with an exec credential plugin, and records the username the API server reports', async () => {
    const plugin = join(dir, 'plugin.js');
    writeFileSync(
      plugin,
      `if (!process.env.KUBERNETES_EXEC_INFO.includes('ExecCredential')) process.exit(3);
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: process.env.TOKEN } }));`,
    );
    const kubeconfig = file('exec.yaml', {
      'current-context': 'exec',
      clusters: [{ name: 'test', cluster: cluster() }],
      users: [
        {
          name: 'plugin',
          user: {
            exec: {
              apiVersion: 'client.authentication.k8s.io/v1',
              command: process.execPath,
              args: [plugin],
              env: [{ name: 'TOKEN', value: alice.users[0].user.token }],
              interactiveMode: 'Never',
            },
          },
        },
      ],
      contexts: [
        { name: 'exec', context: { cluster: 'test', user: 'plugin' } },
      ],
    });
    const edited = await run(
      ['edit', 'app', '--kubeconfig', kubeconfig, '-n', ns.name],
      {
        stdout: { write: () => true },
        stderr: { write: () => true },
        stdin: new PassThrough(),
        stdinIsTerminal: false,
        stdoutIsTerminal: false,
        env: { HOME: dir, PATH: process.env.PATH },
        edit: async path => {
          writeFileSync(path, 'key: changed\n');
          return 0;
        },
      },
    );
    expect(edited).toBe(EXIT.ok);
    const history = await cli(['history', 'app', '-o', 'json', '-n', ns.name], {
      KUBECONFIG: kubeconfig,
    });
    expect(JSON.parse(history.stdout).versions[0].snapshotBy).toBe(
      'kubectl:alice',
    );
  });

  it('says what to do when credentials are refused, a plugin is missing, or the kubeconfig cannot serve', async () => {
    const base = {
      'current-context': 'test',
      clusters: [{ name: 'test', cluster: cluster() }],
      contexts: [
        {
          name: 'test',
          context: { cluster: 'test', user: 'u', namespace: ns.name },
        },
      ],
    };
    const refused = await cli(['get', 'app'], {
      KUBECONFIG: file('bad-token.yaml', {
        ...base,
        users: [{ name: 'u', user: { token: 'not-a-token' } }],
      }),
    });
    expect(refused).toEqual({
      code: EXIT.failed,
      stdout: '',
      stderr:
        'error: The API server refused your credentials (401). Log in again, or refresh the token in your kubeconfig.\n',
    });

    const missing = await cli(['get', 'app'], {
      KUBECONFIG: file('missing-plugin.yaml', {
        ...base,
        users: [
          {
            name: 'u',
            user: {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1',
                command: 'krypton-no-such-plugin',
                installHint: 'Install it with your package manager.',
              },
            },
          },
        ],
      }),
    });
    expect(missing.code).toBe(EXIT.failed);
    expect(missing.stderr).toBe(
      'error: The credential plugin krypton-no-such-plugin is not installed. Install it with your package manager.\n',
    );

    const cases: Array<[unknown, string]> = [
      [
        {
          ...base,
          users: [{ name: 'u', user: { 'auth-provider': { name: 'oidc' } } }],
        },
        'uses an auth-provider',
      ],
      [
        {
          ...base,
          clusters: [
            { name: 'test', cluster: { server: 'http://127.0.0.1:1' } },
          ],
          users: [],
        },
        'not https://',
      ],
      [{ ...base, 'current-context': 'gone' }, 'no context named "gone"'],
    ];
    for (const [config, message] of cases) {
      const answer = await cli(['get', 'app'], {
        KUBECONFIG: file('case.yaml', config),
      });
      expect(answer.code).toBe(EXIT.usage);
      expect(answer.stderr).toContain(message);
      expect(answer.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const notYaml = join(dir, 'not-yaml');
    writeFileSync(notYaml, 'clusters: [unclosed\n');
    const broken = await cli(['get', 'app', '--kubeconfig', notYaml], {});
    expect(broken).toMatchObject({
      code: EXIT.usage,
      stderr: `error: The kubeconfig ${notYaml} is not valid YAML; check it with kubectl config view.\n`,
    });
    const absent = await cli(
      ['get', 'app', '--kubeconfig', join(dir, 'absent')],
      {},
    );
    expect(absent.stderr).toBe(
      `error: Cannot read the kubeconfig ${join(dir, 'absent')} (ENOENT).\n`,
    );
  });

  it('refuses bad input before any request, one line each', async () => {
    const kubeconfig = kubeconfigOf('alice');
    const cases: Array<[string[], string]> = [
      [['history'], 'Usage: kubectl krypton history NAME.'],
      [['history', 'Not_A_Name'], 'Invalid Secret name'],
      [['restore', 'app', '0'], 'The version must be a positive whole number'],
      [['history', 'app', '-o', 'xml'], '-o must be json or yaml.'],
      [['history', 'app', '--reveal'], 'history takes no --reveal.'],
      [['frobnicate'], 'Unknown command "frobnicate"'],
      [['get', 'app', '--no-such-flag'], "Unknown option '--no-such-flag'"],
      [['get', 'a'.repeat(5000)], 'longer than 4,096 characters'],
    ];
    for (const [args, message] of cases) {
      const answer = await cli([...args, '--kubeconfig', kubeconfig], {});
      expect(answer.code).toBe(EXIT.usage);
      expect(answer.stderr).toContain(message);
      expect(answer.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
