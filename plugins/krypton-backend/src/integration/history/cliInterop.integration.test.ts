import {
  ClusterAdmin,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { EXIT, runCaptured } from '@krypton/kubectl-krypton';
import { readFileSync, writeFileSync } from 'node:fs';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';
import { b64 } from '../../__testUtils__/history';

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

// One history, three hosts' writes: the versions that kubectl krypton saves are listed and
// restored by the backend unchanged, and the backend's restore is history to the terminal.
describe('history written by kubectl krypton, restored by the backend', () => {
  const ns = useTestNamespace('krypton-cli-interop');
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const path = () => `/api/krypton/namespaces/${ns.name}/secrets/shared`;

  beforeAll(async () => {
    krypton = await startKryptonBackend({
      kubernetes: { identity: 'impersonation' },
    });
    // The terminal's alice is the token user alice; the portal's is impersonated by entity ref.
    for (const name of ['alice', 'user:default/alice']) {
      await admin.grantSecrets(ns.name, { kind: 'User', name });
      await admin.untilAllowed(
        { user: name },
        { namespace: ns.name, verb: 'list', resource: 'secrets' },
      );
    }
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'shared',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { password: b64('one') },
    });
  });
  afterAll(async () => {
    await krypton?.stop();
    admin.close();
  });

  it('restores in the portal a version that the terminal saved, and the terminal lists the restore', async () => {
    const edited = await kubectlKrypton(ns.name, ['edit', 'shared'], text =>
      text.replace('password: one', 'password: two'),
    );
    expect(edited.code).toBe(EXIT.ok);

    const versions = await request(krypton.server)
      .get(`${path()}/versions`)
      .set('Authorization', as('alice'));
    expect(versions.status).toBe(200);
    expect(versions.body.items).toEqual([
      expect.objectContaining({
        version: 1,
        snapshotBy: 'kubectl:alice',
        keys: ['password'],
      }),
    ]);
    const live = await request(krypton.server)
      .get(path())
      .set('Authorization', as('alice'));
    const restored = await request(krypton.server)
      .post(`${path()}/restore`)
      .set('Authorization', as('alice'))
      .send({ version: 1, resourceVersion: live.body.resourceVersion });
    expect(restored.status).toBe(200);
    expect((await admin.secret(ns.name, 'shared')).data).toEqual({
      password: b64('one'),
    });

    const history = await kubectlKrypton(ns.name, [
      'history',
      'shared',
      '-o',
      'json',
    ]);
    expect(JSON.parse(history.stdout).versions).toEqual([
      expect.objectContaining({
        version: 2,
        snapshotBy: 'user:default/alice',
        how: 'krypton',
        changes: [{ key: 'password', change: 'changed', kind: 'text' }],
      }),
      expect.objectContaining({ version: 1, snapshotBy: 'kubectl:alice' }),
    ]);
  });
});
