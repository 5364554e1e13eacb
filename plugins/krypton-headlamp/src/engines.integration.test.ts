import {
  ClusterAdmin,
  createWorkload,
  eventually,
  readWorkload,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  KryptonError,
  messages,
  KubeApiError,
  METADATA_LIST_ACCEPT,
  RESTART_NOTE,
  SECRETS,
  STATEFUL_SETS,
  restartHttpStatus,
} from '@krypton/core';
import {
  CLUSTER,
  HeadlampSession,
  headlampAs,
  untilSecretsListable,
} from './__testUtils__/testCluster';
import { headlampActor } from './actor';
import { HeadlampKrypton, headlampKrypton } from './engines';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function refusal<E extends Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (e) {
    return e as E;
  }
  throw new Error('expected a rejection');
}

// Token identities for the unprivileged users exist only on the control plane that the test run
// starts; an existing cluster (KRYPTON_TEST_KUBECONFIG) knows them as impersonated names only.
const describeLocalCluster = process.env.KRYPTON_TEST_KUBECONFIG
  ? describe.skip
  : describe;

// Krypton's engines as the Headlamp plugin runs them: on the browser gateway, through a stand-in
// for Headlamp's server that forwards with alice's token, against the real kube-apiserver. Alice
// holds only the RBAC that each test grants her.
describeLocalCluster(
  'Krypton in Headlamp, against a real kube-apiserver',
  () => {
    const ns = useTestNamespace('krypton-hl');
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
    });
    afterAll(async () => {
      await alice?.server.close();
      admin?.close();
    });

    it('keeps the replaced state in history on an edit, reading history as metadata only', async () => {
      const created = await krypton.live.create(ns.name, {
        name: 'db',
        data: { password: 'first' },
      });
      alice.server.seen.length = 0;
      const edited = await krypton.versioned.update(
        ns.name,
        'db',
        {
          resourceVersion: created.metadata.resourceVersion!,
          data: { password: 'second' },
        },
        krypton.gate,
      );
      expect(edited.dataChanged).toBe(true);
      expect(edited.archive).toMatchObject({
        archivedVersion: 1,
        reused: false,
      });

      const versions = await krypton.versioned.versions(
        ns.name,
        'db',
        krypton.gate,
      );
      expect(versions).toEqual([
        expect.objectContaining({
          version: 1,
          // The name the API server gave alice's token, from her SelfSubjectReview.
          snapshotBy: 'headlamp:alice',
          sourceResourceVersion: created.metadata.resourceVersion,
          keys: ['password'],
        }),
      ]);
      const v1 = await krypton.versioned.version(
        ns.name,
        'db',
        1,
        krypton.gate,
      );
      expect(v1.data).toEqual({ password: 'first' });

      // The cluster holds one snapshot with the old bytes, and the new value live.
      const snapshots = await admin.snapshots(ns.name);
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0].data).toEqual({ password: b64('first') });
      expect(snapshots[0].metadata.name).toMatch(/^krypton-h-[0-9a-f]{32}-v1$/);
      const live = await admin.secret(ns.name, 'db');
      expect(live.data).toEqual({ password: b64('second') });
      // Writes name Krypton as their field manager, as the server's do.
      const managers = (live.metadata.managedFields ?? []).map(
        f => (f as { manager?: string }).manager,
      );
      expect(new Set(managers)).toEqual(new Set(['krypton']));
      // History lists went out as metadata-only requests: no value left the API server for them.
      const lists = alice.server.seen.filter(r =>
        r.url.includes('labelSelector='),
      );
      expect(lists.length).toBeGreaterThan(0);
      for (const request of lists)
        expect(request.accept).toBe(METADATA_LIST_ACCEPT);
    });

    it('restores a version with byte-exact binary data', async () => {
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
      const original = Buffer.from(bytes).toString('base64');
      const created = await krypton.live.create(ns.name, {
        name: 'cert',
        data: { note: 'text' },
        binaryData: { blob: original },
      });
      const edited = await krypton.versioned.update(
        ns.name,
        'cert',
        {
          resourceVersion: created.metadata.resourceVersion!,
          data: { note: 'text' },
          binaryData: { blob: Buffer.from([0xc3, 0x28]).toString('base64') },
        },
        krypton.gate,
      );
      const v1 = await krypton.versioned.version(
        ns.name,
        'cert',
        1,
        krypton.gate,
      );
      expect(v1.binaryKeys).toEqual(['blob']);
      expect(v1.binaryData).toEqual({ blob: original });

      const restored = await krypton.versioned.restore(
        ns.name,
        'cert',
        {
          version: 1,
          resourceVersion: edited.secret.metadata.resourceVersion!,
        },
        krypton.gate,
      );
      expect(restored.dataChanged).toBe(true);
      expect(restored.archive).toMatchObject({ archivedVersion: 2 });

      const live = await admin.secret(ns.name, 'cert');
      expect(live.data).toEqual({ note: b64('text'), blob: original });
      expect(
        Buffer.from(live.data!.blob, 'base64').equals(Buffer.from(bytes)),
      ).toBe(true);
      // The state rolled back from is history too, byte-exact.
      const v2 = await krypton.versioned.version(
        ns.name,
        'cert',
        2,
        krypton.gate,
      );
      expect(v2.binaryData).toEqual({ blob: 'wyg=' });
    });

    it('answers a stale revision with 409, from the engine and from the API server', async () => {
      const created = await krypton.live.create(ns.name, {
        name: 'api',
        data: { token: 'one' },
      });
      const revision = created.metadata.resourceVersion!;
      await krypton.versioned.update(
        ns.name,
        'api',
        { resourceVersion: revision, data: { token: 'two' } },
        krypton.gate,
      );
      const stale = { code: 'conflict', message: messages.staleRevision };

      // A second tab still holds the first revision.
      await expect(
        krypton.versioned.update(
          ns.name,
          'api',
          { resourceVersion: revision, data: { token: 'three' } },
          krypton.gate,
        ),
      ).rejects.toMatchObject(stale);
      await expect(
        krypton.versioned.restore(
          ns.name,
          'api',
          { version: 1, resourceVersion: revision },
          krypton.gate,
        ),
      ).rejects.toMatchObject(stale);

      // A write planned on the old state: the API server's precondition answers 409 through
      // Headlamp's proxy, which keeps only the status, and the engine still says stale revision.
      const { replacement } = krypton.live.planUpdate(created, {
        resourceVersion: revision,
        data: { token: 'four' },
      });
      const refused = await refusal<KryptonError>(
        krypton.live.write(ns.name, 'api', replacement),
      );
      expect(refused).toBeInstanceOf(KryptonError);
      expect(refused).toMatchObject(stale);
      expect(
        await refusal<KubeApiError>(
          alice.gateway.replace(SECRETS, ns.name, 'api', replacement),
        ),
      ).toMatchObject({ status: 409, reason: 'Conflict' });
      // The other 409, a name already taken, keeps its own message.
      await expect(
        krypton.live.create(ns.name, { name: 'api', data: { token: 'x' } }),
      ).rejects.toMatchObject({
        code: 'conflict',
        message: messages.alreadyExists,
      });

      const live = await admin.secret(ns.name, 'api');
      expect(live.data).toEqual({ token: b64('two') });
      const snapshots = await admin.snapshots(ns.name);
      expect(
        snapshots.filter(
          s => s.metadata.annotations?.['krypton.io/history-of'] === 'api',
        ),
      ).toHaveLength(1);
    });

    it('restarts consumers with a partial result where RBAC lets the user patch only some kinds', async () => {
      await krypton.live.create(ns.name, {
        name: 'creds',
        data: { password: 'p' },
      });
      await createWorkload(admin, ns.name, 'Deployment', 'env', {
        containers: [
          {
            name: 'app',
            image: 'example.invalid/app:1',
            env: [
              {
                name: 'PASSWORD',
                valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } },
              },
            ],
          },
        ],
      });
      await createWorkload(admin, ns.name, 'StatefulSet', 'pull', {
        imagePullSecrets: [{ name: 'creds' }],
      });
      await createWorkload(admin, ns.name, 'DaemonSet', 'volume', {
        volumes: [{ name: 'v', secret: { secretName: 'creds' } }],
      });
      await createWorkload(admin, ns.name, 'Deployment', 'bystander', {
        volumes: [{ name: 'v', secret: { secretName: 'creds2' } }],
      });
      // Alice may list all three kinds but patch only Deployments and DaemonSets.
      await admin.grant(
        ns.name,
        'alice-workloads',
        { kind: 'User', name: 'alice' },
        [
          {
            apiGroups: ['apps'],
            resources: ['deployments', 'statefulsets', 'daemonsets'],
            verbs: ['get', 'list'],
          },
          {
            apiGroups: ['apps'],
            resources: ['deployments', 'daemonsets'],
            verbs: ['patch'],
          },
        ],
      );
      const listed = await eventually(
        () =>
          alice.gateway
            .list(STATEFUL_SETS, ns.name, { limit: 1, maxBytes: 65536 })
            .then(
              () => true,
              () => false,
            ),
        ok => ok,
      );
      expect(listed).toBe(true);
      const pullBefore = await readWorkload(
        admin,
        ns.name,
        'StatefulSet',
        'pull',
      );
      const bystanderBefore = await readWorkload(
        admin,
        ns.name,
        'Deployment',
        'bystander',
      );

      await krypton.live.gateRestart(ns.name, 'creds', krypton.gate);
      const result = await krypton.restart.restart(ns.name, 'creds');

      expect(result.status).toBe('partial');
      expect(restartHttpStatus(result.status)).toBe(207);
      expect(result.matched).toBe(3);
      expect(
        [...result.requested].sort((a, b) => a.kind.localeCompare(b.kind)),
      ).toEqual([
        { kind: 'DaemonSet', name: 'volume' },
        { kind: 'Deployment', name: 'env' },
      ]);
      expect(result.failures).toEqual([
        {
          kind: 'StatefulSet',
          name: 'pull',
          code: 'forbidden',
          message: messages.forbiddenKubernetes,
          httpStatus: 403,
        },
      ]);
      expect(result.discoveryFailures).toEqual([]);
      expect(result.message).toBe(
        'Rollout requested for 2 of 3 matched workloads. 1 patch request failed.',
      );
      expect(result.note).toBe(RESTART_NOTE);

      // The cluster: exactly the requested pod templates carry the restart annotation.
      for (const [kind, name] of [
        ['Deployment', 'env'],
        ['DaemonSet', 'volume'],
      ] as const) {
        const workload = await readWorkload(admin, ns.name, kind, name);
        expect(
          workload.spec.template.metadata?.annotations?.[
            'krypton.io/restarted-at'
          ],
        ).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      expect(
        (await readWorkload(admin, ns.name, 'StatefulSet', 'pull')).metadata
          .resourceVersion,
      ).toBe(pullBefore.metadata.resourceVersion);
      expect(
        (await readWorkload(admin, ns.name, 'Deployment', 'bystander')).metadata
          .resourceVersion,
      ).toBe(bystanderBefore.metadata.resourceVersion);
    });
  },
);
