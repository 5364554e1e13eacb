import { ClusterAdmin, useTestNamespace } from '@krypton/kube-testenv';
import { readFileSync, writeFileSync } from 'node:fs';
import { CliAnswer, cli, grantCli } from './__testUtils__/cli';
import { EXIT } from './cli/exitCodes';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const text = (b64text: string | undefined) =>
  Buffer.from(b64text ?? '', 'base64').toString('utf8');

/** An editor that rewrites the file as `change` says, as a user would in vi. */
const editor =
  (change: (file: string) => string) =>
  async (path: string): Promise<number> => {
    writeFileSync(path, change(readFileSync(path, 'utf8')));
    return 0;
  };

function expectOneLine(answer: CliAnswer) {
  expect(answer.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(answer.stderr).toMatch(/^error: /);
  expect(answer.stderr).not.toMatch(/\n\s+at /);
}

// kubectl krypton as alice, who holds exactly the Role of rbac.yaml that docs/cli.md names; bob
// lacks its delete of Secrets and carol its list.
describe('kubectl krypton against a real kube-apiserver', () => {
  const ns = useTestNamespace('krypton-cli');
  let admin: ClusterAdmin;

  beforeAll(async () => {
    admin = new ClusterAdmin();
    await grantCli(admin, ns.name, 'alice');
    await grantCli(admin, ns.name, 'bob', [
      { resource: 'secrets', verb: 'delete' },
    ]);
    await grantCli(admin, ns.name, 'carol', [
      { resource: 'secrets', verb: 'list' },
    ]);
  });
  afterAll(() => admin?.close());

  it('adopts, edits, lists history, diffs and restores, each change kept as a version by kubectl:alice', async () => {
    await admin.createSecret(ns.name, {
      metadata: { name: 'db' },
      data: { password: b64('first'), user: b64('app') },
    });
    // Not managed yet: the CLI says how to adopt it.
    const before = await cli('alice', ns.name, ['history', 'db']);
    expect(before.code).toBe(EXIT.notFound);
    expect(before.stderr).toContain('kubectl krypton adopt');
    expectOneLine(before);

    const adopted = await cli('alice', ns.name, [
      'adopt',
      'db',
      '--description',
      'The app database',
    ]);
    expect(adopted).toMatchObject({ code: EXIT.ok, stderr: '' });
    expect(adopted.stdout).toContain(`Krypton now manages ${ns.name}/db`);

    // The editor sees the text values; the edit changes one and adds one.
    let shown = '';
    const edited = await cli('alice', ns.name, ['edit', 'db'], {
      edit: editor(file => {
        shown = file;
        return file
          .replace('password: first', 'password: second')
          .concat('api_key: k-1\n');
      }),
    });
    expect(edited.code).toBe(EXIT.ok);
    expect(shown).toContain('password: first');
    expect(shown).toContain('user: app');
    expect(edited.stdout).toContain('The replaced state is kept as version 1');
    const live = await admin.secret(ns.name, 'db');
    expect(text(live.data?.password)).toBe('second');
    expect(text(live.data?.api_key)).toBe('k-1');

    // A second edit removes a key.
    const removed = await cli('alice', ns.name, ['edit', 'db'], {
      edit: editor(file => file.replace(/^user: app\n/m, '')),
    });
    expect(removed.code).toBe(EXIT.ok);
    expect(removed.stdout).toContain('kept as version 2');

    const history = await cli('alice', ns.name, ['history', 'db']);
    expect(history.code).toBe(EXIT.ok);
    const rows = history.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe(
      `Secret ${ns.name}/db: live version 3, 2 versions kept.`,
    );
    expect(rows[1]).toMatch(/^VERSION\s+REPLACED\s+BY\s+HOW\s+CHANGES$/);
    expect(rows[2]).toMatch(/^2\s+\d+s\s+kubectl:alice\s+Krypton\s+-user$/);
    expect(rows[3]).toMatch(
      /^1\s+\d+s\s+kubectl:alice\s+Krypton\s+\+api_key ~password$/,
    );
    expect(history.stdout).not.toMatch(/first|second|k-1|app\b/);

    const json = await cli('alice', ns.name, ['history', 'db', '-o', 'json']);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.live).toMatchObject({ version: 3 });
    expect(parsed.versions).toEqual([
      expect.objectContaining({
        version: 2,
        snapshotBy: 'kubectl:alice',
        how: 'krypton',
        changes: [{ key: 'user', change: 'removed', kind: 'text' }],
      }),
      expect.objectContaining({
        version: 1,
        changes: [
          { key: 'api_key', change: 'added', kind: 'text' },
          { key: 'password', change: 'changed', kind: 'text' },
        ],
      }),
    ]);
    expect(json.stdout).not.toMatch(/"first"|"second"|k-1/);

    // diff: the newest version against live by default, masked.
    const masked = await cli('alice', ns.name, ['diff', 'db']);
    expect(masked.stdout).toBe(
      [
        '--- version 2',
        '+++ live (version 3)',
        '  api_key  unchanged',
        '  password  unchanged',
        '- user  removed',
        '0 added, 1 removed, 0 changed, 2 unchanged.',
        '',
      ].join('\n'),
    );
    const revealed = await cli(
      'alice',
      ns.name,
      ['diff', 'db', '1', 'live', '--reveal'],
      { stdoutIsTerminal: true },
    );
    expect(revealed.stdout).toContain(
      '~ password  changed\n    - first\n    + second',
    );
    expect(revealed.stderr).toContain('Warning: showing Secret values');

    // restore without a terminal and without --yes asks nobody and changes nothing.
    const revision = (await admin.secret(ns.name, 'db')).metadata
      .resourceVersion;
    const unasked = await cli('alice', ns.name, ['restore', 'db', '1']);
    expect(unasked.code).toBe(EXIT.cancelled);
    expect(unasked.stderr).toContain('pass --yes');
    expect((await admin.secret(ns.name, 'db')).metadata.resourceVersion).toBe(
      revision,
    );
    const declined = await cli('alice', ns.name, ['restore', 'db', '1'], {
      typed: 'n\n',
    });
    expect(declined.code).toBe(EXIT.cancelled);
    expect(text((await admin.secret(ns.name, 'db')).data?.password)).toBe(
      'second',
    );

    const restored = await cli('alice', ns.name, ['restore', 'db', '1'], {
      typed: 'y\n',
    });
    expect(restored.code).toBe(EXIT.ok);
    expect(restored.stderr).toContain(
      `Restoring ${ns.name}/db to version 1 changes:\n  - api_key  removed\n  ~ password  changed\n  + user  added`,
    );
    expect(restored.stdout).toContain(
      'live is now version 4. The replaced state is kept as version 3.',
    );
    const back = await admin.secret(ns.name, 'db');
    expect(back.data).toEqual({ password: b64('first'), user: b64('app') });
  });

  it('explains a Secret that changed while it was edited, and writes nothing', async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'raced',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { token: b64('t-1') },
    });
    const answer = await cli('alice', ns.name, ['edit', 'raced'], {
      edit: async path => {
        const live = await admin.secret(ns.name, 'raced');
        await admin.request({
          method: 'PUT',
          path: `/api/v1/namespaces/${ns.name}/secrets/raced`,
          body: { ...live, data: { token: b64('t-other') } },
        });
        writeFileSync(
          path,
          readFileSync(path, 'utf8').replace('t-1', 't-mine'),
        );
        return 0;
      },
    });
    expect(answer.code).toBe(EXIT.conflict);
    expectOneLine(answer);
    expect(answer.stderr).toContain('changed while you edited it');
    expect(answer.stderr).toContain('kubectl krypton diff raced');
    expect(answer.stderr).not.toMatch(/t-1|t-mine|t-other/);
    const live = await admin.secret(ns.name, 'raced');
    expect(text(live.data?.token)).toBe('t-other');
    const kept = (await admin.snapshots(ns.name)).filter(
      snapshot =>
        snapshot.metadata.annotations?.['krypton.io/source-uid'] ===
        live.metadata.uid,
    );
    expect(kept).toEqual([]);
    expect(live.metadata.annotations?.['krypton.io/version']).toBeUndefined();
  });

  it('refuses an immutable Secret before the editor opens, and a service-account token before asking', async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'frozen',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      immutable: true,
      data: { key: b64('v') },
    });
    let opened = false;
    const frozen = await cli('alice', ns.name, ['edit', 'frozen'], {
      edit: async () => {
        opened = true;
        return 0;
      },
    });
    expect(frozen.code).toBe(EXIT.refused);
    expect(opened).toBe(false);
    expect(frozen.stderr).toBe(
      'error: The Secret is immutable: its data cannot be changed.\n',
    );

    await admin.createSecret(ns.name, {
      metadata: {
        name: 'sa-token',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'kubernetes.io/service-account.name': 'default' },
      },
      type: 'kubernetes.io/service-account-token',
    });
    const token = await cli('alice', ns.name, ['restore', 'sa-token', '1'], {
      typed: 'y\n',
    });
    expect(token.code).toBe(EXIT.refused);
    expect(token.stderr).toContain(
      'Service-account token Secrets cannot be created, edited or restored through Krypton.',
    );
    expect(token.stderr).not.toContain('[y/N]');
  });

  it('writes nothing to a Secret whose own annotation asks for approval: that is asked in the portal', async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'guarded',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/required-approvals': '2' },
      },
      data: { key: b64('v') },
    });
    const revision = (await admin.secret(ns.name, 'guarded')).metadata
      .resourceVersion;
    const refusal =
      'error: Changes to this Secret need approval (its krypton.io/required-approvals annotation asks for 2): request the change in the Krypton portal, where approvers review it. kubectl krypton writes at once, so it writes nothing here.\n';
    let opened = false;
    const edited = await cli('alice', ns.name, ['edit', 'guarded'], {
      edit: async () => {
        opened = true;
        return 0;
      },
    });
    expect(edited.code).toBe(EXIT.refused);
    expect(edited.stderr).toBe(refusal);
    expect(opened).toBe(false);
    const restored = await cli('alice', ns.name, ['restore', 'guarded', '1'], {
      typed: 'y\n',
    });
    expect(restored.code).toBe(EXIT.refused);
    expect(restored.stderr).toBe(refusal);
    expect(
      (await admin.secret(ns.name, 'guarded')).metadata.resourceVersion,
    ).toBe(revision);
    // Reading stays open: its history and values are the user's to see.
    const history = await cli('alice', ns.name, ['history', 'guarded']);
    expect(history.code).toBe(EXIT.ok);
  });

  it('keeps binary values out of the editor and byte-exact through an edit', async () => {
    const bytes = Buffer.from(Array.from({ length: 64 }, (_, i) => 255 - i));
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'tls',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { 'tls.key': bytes.toString('base64'), note: b64('a\nb\n') },
    });
    let shown = '';
    const answer = await cli('alice', ns.name, ['edit', 'tls'], {
      edit: editor(file => {
        shown = file;
        return file.replace('  a\n', '  c\n');
      }),
    });
    expect(answer.code).toBe(EXIT.ok);
    expect(shown).toContain(
      'Binary values are kept as they are and not shown: tls.key',
    );
    expect(shown).toContain('note: |\n  a\n  b\n');
    const live = await admin.secret(ns.name, 'tls');
    expect(live.data?.['tls.key']).toBe(bytes.toString('base64'));
    expect(text(live.data?.note)).toBe('c\nb\n');
    const get = await cli('alice', ns.name, ['get', 'tls']);
    expect(get.stdout).toMatch(/note:\s+4 bytes\n/);
    expect(get.stdout).toMatch(/tls\.key:\s+64 bytes, binary \(never shown\)/);
    const revealed = await cli('alice', ns.name, ['get', 'tls', '--reveal']);
    expect(revealed.stdout).toMatch(/note:\s+c\n\s+b\n/);
  });

  it('without list, says that history needs it; without delete, refuses a change that retention would prune', async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'limited',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { k: b64('v1') },
    });
    const noList = await cli('carol', ns.name, ['history', 'limited']);
    expect(noList.code).toBe(EXIT.forbidden);
    expectOneLine(noList);
    expect(noList.stderr).toContain(`kubectl auth can-i --list -n ${ns.name}`);
    // get needs no list.
    expect((await cli('carol', ns.name, ['get', 'limited'])).code).toBe(
      EXIT.ok,
    );

    const env = { KRYPTON_HISTORY_LIMIT: '1' };
    const first = await cli('bob', ns.name, ['edit', 'limited'], {
      env,
      edit: editor(file => file.replace('k: v1', 'k: v2')),
    });
    expect(first.code).toBe(EXIT.ok);
    const second = await cli('bob', ns.name, ['edit', 'limited'], {
      env,
      edit: editor(file => file.replace('k: v2', 'k: v3')),
    });
    expect(second.code).toBe(EXIT.failed);
    expectOneLine(second);
    expect(second.stderr).toContain('so the Secret was not changed');
    expect(second.stderr).toContain(
      `kubectl auth can-i delete secrets -n ${ns.name}`,
    );
    expect(second.stderr).not.toMatch(/v1|v2|v3/);
    expect(text((await admin.secret(ns.name, 'limited')).data?.k)).toBe('v2');
  });
});
