import {
  ClusterAdmin,
  createPod,
  createReplicaSet,
  createWorkload,
  readWorkload,
  runningPod,
  setPodStatus,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { readFileSync, writeFileSync } from 'node:fs';
import { cli, grantCli } from './__testUtils__/cli';
import { EXIT } from './cli/exitCodes';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const RESTARTED_AT = 'krypton.io/restarted-at';

// consumers, restart, deleted and completion as alice, who holds the Role of rbac.yaml; bob has
// it without patching workloads, and carol may patch Deployments only.
describe('kubectl krypton consumers, restart and deleted against a real kube-apiserver', () => {
  const ns = useTestNamespace('krypton-cli-rs');
  let admin: ClusterAdmin;

  const restartedAt = async (
    kind: 'Deployment' | 'StatefulSet',
    name: string,
  ) =>
    (await readWorkload(admin, ns.name, kind, name)).spec.template.metadata
      ?.annotations?.[RESTARTED_AT];

  beforeAll(async () => {
    admin = new ClusterAdmin();
    const noPatch = [{ resource: 'deployments', verb: 'patch' }];
    await grantCli(admin, ns.name, 'alice');
    await grantCli(admin, ns.name, 'bob', noPatch);
    await grantCli(admin, ns.name, 'carol', noPatch);
    await admin.grant(
      ns.name,
      'carol-deployments',
      { kind: 'User', name: 'carol' },
      [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }],
    );
    await admin.untilAllowed(
      { user: 'carol', groups: [] },
      {
        namespace: ns.name,
        verb: 'patch',
        group: 'apps',
        resource: 'deployments',
      },
    );

    await admin.createSecret(ns.name, {
      metadata: {
        name: 'api-key',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { key: b64('k-1') },
    });
    const envFrom = {
      containers: [
        {
          name: 'app',
          image: 'example.invalid/app:1',
          envFrom: [{ secretRef: { name: 'api-key' } }],
        },
      ],
    };
    const deployment = await createWorkload(
      admin,
      ns.name,
      'Deployment',
      'api',
      envFrom,
    );
    const replicaSet = await createReplicaSet(
      admin,
      ns.name,
      deployment,
      'abc12',
      envFrom,
    );
    await createPod(
      admin,
      ns.name,
      'api-abc12-x1',
      { kind: 'ReplicaSet', object: replicaSet },
      envFrom,
    );
    // The pod starts after an edit made the Secret version 2: 5 s on, past the 3 s in which a
    // start may still read the version before, without waiting for them.
    const edited = await cli('alice', ns.name, ['edit', 'api-key'], {
      edit: async path => {
        writeFileSync(path, readFileSync(path, 'utf8').replace('k-1', 'k-2'));
        return 0;
      },
    });
    if (edited.code !== EXIT.ok) throw new Error(edited.stderr);
    await setPodStatus(
      admin,
      ns.name,
      'api-abc12-x1',
      runningPod(['app'], new Date(Date.now() + 5_000)),
    );
    await createWorkload(admin, ns.name, 'StatefulSet', 'worker', {
      containers: [{ name: 'app', image: 'example.invalid/app:1' }],
      volumes: [{ name: 'key', secret: { secretName: 'api-key' } }],
    });
  });
  afterAll(() => admin?.close());

  it('lists the consumers with the version their pods hold, as a table and as JSON', async () => {
    const table = await cli('alice', ns.name, ['consumers', 'api-key']);
    expect(table.code).toBe(EXIT.ok);
    const lines = table.stdout.trimEnd().split('\n');
    const json = JSON.parse(
      (await cli('alice', ns.name, ['consumers', 'api-key', '-o', 'json']))
        .stdout,
    );
    expect(json.summary).toMatchObject({
      pods: 1,
      current: 1,
      allCurrent: true,
    });
    // The table says what the JSON says: the core's summary and each workload's groups.
    expect(lines[0]).toBe(
      `Secret ${ns.name}/api-key is live version 2. ${json.summary.message}`,
    );
    expect(lines[1]).toMatch(/^KIND\s+NAME\s+USES\s+ROLLOUT\s+PODS$/);
    expect(lines[2]).toMatch(
      /^Deployment\s+api\s+envFrom\s+\?\/1 updated, \? ready\s+1 pod current: version 2 \(held back: not-observed\)$/,
    );
    expect(lines[3]).toMatch(/^StatefulSet\s+worker\s+volume\s+.*\s+no pods$/);
    expect(
      json.workloads.map(
        (w: { kind: string; name: string }) => `${w.kind}/${w.name}`,
      ),
    ).toEqual(['Deployment/api', 'StatefulSet/worker']);
    expect(JSON.stringify(json)).not.toMatch(/k-1|k-2/);
  });

  it("restarts the consumers with the spec's result, its status as the exit code", async () => {
    const failed = await cli('bob', ns.name, ['restart', 'api-key']);
    expect(failed.code).toBe(EXIT.failed);
    expect(failed.stdout).toMatch(/^failed: /);
    expect(failed.stdout).toContain('failed     Deployment/api:');
    expect(await restartedAt('Deployment', 'api')).toBeUndefined();

    const partial = await cli('carol', ns.name, [
      'restart',
      'api-key',
      '-o',
      'json',
    ]);
    expect(partial.code).toBe(EXIT.restartPartial);
    const result = JSON.parse(partial.stdout);
    expect(result).toMatchObject({
      status: 'partial',
      matched: 2,
      requested: [{ kind: 'Deployment', name: 'api' }],
      failures: [
        expect.objectContaining({
          kind: 'StatefulSet',
          name: 'worker',
          code: 'forbidden',
          httpStatus: 403,
        }),
      ],
      discoveryFailures: [],
    });
    expect(await restartedAt('Deployment', 'api')).toBeDefined();
    expect(await restartedAt('StatefulSet', 'worker')).toBeUndefined();

    const requested = await cli('alice', ns.name, ['restart', 'api-key']);
    expect(requested.code).toBe(EXIT.ok);
    expect(requested.stdout).toContain(
      'requested: Rollout requested for 2 of 2 matched workloads.',
    );
    expect(requested.stdout).toContain(`requested  StatefulSet/worker`);
    expect(await restartedAt('StatefulSet', 'worker')).toBeDefined();

    await admin.createSecret(ns.name, {
      metadata: {
        name: 'unused',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { k: b64('v') },
    });
    const none = await cli('alice', ns.name, ['restart', 'unused']);
    expect(none.code).toBe(EXIT.restartNoTargets);
    expect(none.stdout).toMatch(/^no_targets: /);
  });

  it('lists deleted Secrets whose history is kept', async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'retired',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { k: b64('old') },
    });
    const edited = await cli('alice', ns.name, ['edit', 'retired'], {
      edit: async path => {
        writeFileSync(
          path,
          readFileSync(path, 'utf8').replace('k: old', 'k: new'),
        );
        return 0;
      },
    });
    expect(edited.code).toBe(EXIT.ok);
    const uid = (await admin.secret(ns.name, 'retired')).metadata.uid;
    expect(
      await admin.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/retired`,
      }),
    ).toMatchObject({
      status: 200,
    });
    const answer = await cli('alice', ns.name, ['deleted']);
    expect(answer.code).toBe(EXIT.ok);
    const [header, row] = answer.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAME\s+UID\s+DELETED\s+BY\s+VERSIONS\s+NAME NOW$/);
    expect(row).toMatch(
      new RegExp(`^retired\\s+${uid}\\s+unknown\\s+unknown\\s+1\\s+free$`),
    );
  });

  it('completes commands, flags and the Secret names the user may list', async () => {
    const commands = await cli('alice', ns.name, ['__complete', 're']);
    expect(commands.stdout).toBe('restore\nrestart\n:4\n');
    const flags = await cli('alice', ns.name, ['__complete', 'diff', '--re']);
    expect(flags.stdout).toBe('--request-timeout\n--reveal\n:4\n');
    const names = await cli('alice', ns.name, [
      '__complete',
      'history',
      '-n',
      ns.name,
      'a',
    ]);
    expect(names.stdout).toBe('api-key\n:4\n');
    // adopt completes the Secrets that Krypton does not manage yet.
    await admin.createSecret(ns.name, {
      metadata: { name: 'plain' },
      data: {},
    });
    const adoptable = await cli('alice', ns.name, [
      '__complete',
      'adopt',
      '-n',
      ns.name,
      '',
    ]);
    expect(adoptable.stdout).toBe('plain\n:4\n');
    // Without a namespace of hers, the default one lists nothing she may read: no names, no error.
    const elsewhere = await cli('alice', ns.name, [
      '__complete',
      'history',
      '',
    ]);
    expect(elsewhere).toEqual({ code: EXIT.ok, stdout: ':4\n', stderr: '' });
    const script = await cli('alice', ns.name, ['completion', 'bash']);
    expect(script.stdout).toContain(
      'complete -o default -F _kubectl_krypton kubectl-krypton',
    );
  });
});
