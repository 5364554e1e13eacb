import {
  ClusterAdmin,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { EXIT, runCaptured } from '@krypton/kubectl-krypton';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CLUSTER,
  HeadlampSession,
  headlampAs,
  untilSecretsListable,
} from './__testUtils__/testCluster';
import { headlampActor } from './actor';
import { HeadlampKrypton, headlampKrypton } from './engines';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** kubectl krypton in-process, as the test cluster's token user alice, in a namespace. */
function kubectlKrypton(
  namespace: string,
  args: string[],
  edit: (text: string) => string = text => text,
) {
  return runCaptured(
    [
      ...args,
      '--kubeconfig',
      testClusterState().identities.alice.kubeconfig,
      '-n',
      namespace,
    ],
    {
      edit: async path => {
        writeFileSync(path, edit(readFileSync(path, 'utf8')));
        return 0;
      },
    },
  );
}

// Token identities exist only on the control plane that the test run starts.
const describeLocalCluster = process.env.KRYPTON_TEST_KUBECONFIG
  ? describe.skip
  : describe;

// Two hosts, one user, one history: alice's terminal and alice's Headlamp, each with her own
// token, read and restore each other's versions unchanged.
describeLocalCluster(
  'history written by kubectl krypton, read in Headlamp',
  () => {
    const ns = useTestNamespace('krypton-hl-cli');
    let admin: ClusterAdmin;
    let alice: HeadlampSession;
    let krypton: HeadlampKrypton;

    beforeAll(async () => {
      admin = new ClusterAdmin();
      alice = await headlampAs('alice');
      krypton = headlampKrypton({
        gateway: alice.gateway,
        cluster: CLUSTER,
        actor: headlampActor(alice.send),
      });
      await admin.grantSecrets(ns.name, { kind: 'User', name: 'alice' });
      await untilSecretsListable(alice, ns.name);
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'shared',
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { password: b64('one') },
      });
    });
    afterAll(async () => {
      await alice?.server.close();
      admin?.close();
    });

    it('lists and restores a version that the terminal saved, and the terminal lists the restore', async () => {
      const edited = await kubectlKrypton(ns.name, ['edit', 'shared'], text =>
        text.replace('password: one', 'password: two'),
      );
      expect(edited.code).toBe(EXIT.ok);

      const versions = await krypton.versioned.versions(
        ns.name,
        'shared',
        krypton.gate,
      );
      expect(versions).toEqual([
        expect.objectContaining({
          version: 1,
          snapshotBy: 'kubectl:alice',
          keys: ['password'],
        }),
      ]);
      const version = await krypton.versioned.version(
        ns.name,
        'shared',
        1,
        krypton.gate,
      );
      expect(version.data).toEqual({ password: 'one' });

      const live = await krypton.live.get(ns.name, 'shared', krypton.gate);
      const restored = await krypton.versioned.restore(
        ns.name,
        'shared',
        { version: 1, resourceVersion: live.metadata.resourceVersion! },
        krypton.gate,
      );
      expect(restored.dataChanged).toBe(true);
      expect((await admin.secret(ns.name, 'shared')).data).toEqual({
        password: b64('one'),
      });

      const history = await kubectlKrypton(ns.name, [
        'history',
        'shared',
        '-o',
        'json',
      ]);
      expect(history.code).toBe(EXIT.ok);
      expect(JSON.parse(history.stdout).versions).toEqual([
        expect.objectContaining({
          version: 2,
          snapshotBy: 'headlamp:alice',
          how: 'krypton',
          changes: [{ key: 'password', change: 'changed', kind: 'text' }],
        }),
        expect.objectContaining({ version: 1, snapshotBy: 'kubectl:alice' }),
      ]);
    });
  },
);
