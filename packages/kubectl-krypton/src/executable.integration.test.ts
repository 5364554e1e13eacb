import { ClusterAdmin, binDir, useTestNamespace } from '@krypton/kube-testenv';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantCli, kubeconfigOf } from './__testUtils__/cli';
import { EXIT } from './cli/exitCodes';

// The package's own build script, run as its `yarn dist` runs it.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports, no-restricted-syntax
const { main: buildDist } = require('../scripts/dist.js') as {
  main(argv: string[]): Promise<{
    script: string;
    executable: string;
    archive: string;
  }>;
};

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// What ships, run as a user runs it: the single executable (no Node needed on the machine) and
// the npm package's bin, as processes with alice's kubeconfig, on the cases of the in-process
// tests; kubectl itself finding the plugin on PATH; and the krew archive and manifest.
describe('the shipped kubectl-krypton', () => {
  const ns = useTestNamespace('krypton-cli-exe');
  let admin: ClusterAdmin;
  let built: { script: string; executable: string; archive: string };
  let home: string;

  function exec(
    program: string,
    args: string[],
    env: NodeJS.ProcessEnv = {},
  ): { code: number; stdout: string; stderr: string } {
    const answer = spawnSync(program, args, {
      encoding: 'utf8',
      // No Node on PATH for the executable: only the shell tools an editor script needs.
      env: {
        PATH: `${home}/bin:/usr/bin:/bin`,
        HOME: home,
        KUBECONFIG: kubeconfigOf('alice'),
        ...env,
      },
      timeout: 60_000,
    });
    return {
      code: answer.status ?? -1,
      stdout: answer.stdout,
      stderr: answer.stderr,
    };
  }

  beforeAll(async () => {
    admin = new ClusterAdmin();
    home = mkdtempSync(join(tmpdir(), 'krypton-cli-home-'));
    built = await buildDist([]);
    await grantCli(admin, ns.name, 'alice');
    await admin.createSecret(ns.name, {
      metadata: { name: 'db' },
      data: { password: b64('first') },
    });
    // The editor a user would set: a shell script that changes the value in place.
    const editor = join(home, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/first/second/" "$1"\n');
    chmodSync(editor, 0o755);
  }, 180_000);
  afterAll(() => {
    admin?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('runs every step of a history as a single executable, with exit codes scripts can use', () => {
    const exe = built.executable;
    const n = ['-n', ns.name];
    expect(exec(exe, ['version'])).toMatchObject({
      code: EXIT.ok,
      stdout: 'kubectl-krypton 0.1.0\n',
      stderr: '',
    });
    expect(exec(exe, ['history', 'db', ...n]).code).toBe(EXIT.notFound);
    expect(exec(exe, ['adopt', 'db', ...n]).code).toBe(EXIT.ok);
    const edited = exec(exe, ['edit', 'db', ...n], {
      EDITOR: join(home, 'editor.sh'),
    });
    expect(edited).toMatchObject({ code: EXIT.ok, stderr: '' });
    expect(edited.stdout).toContain('The replaced state is kept as version 1');

    const history = JSON.parse(
      exec(exe, ['history', 'db', '-o', 'json', ...n]).stdout,
    );
    expect(history.versions).toEqual([
      expect.objectContaining({
        version: 1,
        snapshotBy: 'kubectl:alice',
        changes: [{ key: 'password', change: 'changed', kind: 'text' }],
      }),
    ]);
    expect(exec(exe, ['diff', 'db', ...n]).stdout).toContain(
      '~ password  changed',
    );
    const unasked = exec(exe, ['restore', 'db', '1', ...n]);
    expect(unasked.code).toBe(EXIT.cancelled);
    expect(unasked.stderr).toContain('pass --yes');
    const restored = exec(exe, ['restore', 'db', '1', '--yes', ...n]);
    expect(restored.code).toBe(EXIT.ok);
    expect(restored.stdout).toContain('live is now version 3');
    expect(exec(exe, ['restore', 'db', 'x', ...n])).toMatchObject({
      code: EXIT.usage,
      stdout: '',
    });
    const failed = exec(exe, ['get', 'db', ...n], {
      KUBECONFIG: join(home, 'absent'),
    });
    expect(failed.code).toBe(EXIT.usage);
    expect(failed.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });

  it("runs as the npm package's bin, and as a kubectl plugin found on PATH", () => {
    // The npm bin runs the bundle with Node.
    const bin = join(__dirname, '..', 'bin', 'kubectl-krypton');
    const npmBin = exec(process.execPath, [bin, 'get', 'db', '-n', ns.name]);
    expect(npmBin.code).toBe(EXIT.ok);
    expect(npmBin.stdout).toMatch(/^ {2}password: 5 bytes$/m);

    // kubectl runs kubectl-krypton from PATH as `kubectl krypton`, and asks
    // kubectl_complete-krypton for completions.
    const pathDir = join(home, 'bin');
    spawnSync('mkdir', ['-p', pathDir]);
    symlinkSync(built.executable, join(pathDir, 'kubectl-krypton'));
    symlinkSync(
      join(__dirname, '..', 'bin', 'kubectl_complete-krypton'),
      join(pathDir, 'kubectl_complete-krypton'),
    );
    const kubectl = join(binDir(), 'kubectl');
    const viaKubectl = exec(kubectl, [
      'krypton',
      'history',
      'db',
      '-n',
      ns.name,
    ]);
    expect(viaKubectl.code).toBe(EXIT.ok);
    expect(viaKubectl.stdout).toContain(`Secret ${ns.name}/db: live version 3`);
    const completed = exec(kubectl, ['__complete', 'krypton', 'hi']);
    expect(completed.stdout).toMatch(/^history\n/);
  });

  it('packs the executable for krew, with the checksum in the manifest', () => {
    const listed = spawnSync('tar', ['-tzf', built.archive], {
      encoding: 'utf8',
    }).stdout;
    expect(listed.trim().split('\n').sort()).toEqual([
      'LICENSE',
      'kubectl-krypton',
      'kubectl_complete-krypton',
    ]);
    const digest = createHash('sha256')
      .update(readFileSync(built.archive))
      .digest('hex');
    const manifest = readFileSync(
      join(built.archive, '..', 'krew', 'krypton.yaml'),
      'utf8',
    );
    expect(manifest).toContain(`sha256: ${digest}`);
    expect(manifest).toContain('bin: kubectl-krypton');
  });
});
