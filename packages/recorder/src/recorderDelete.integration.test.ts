import { eventually, testClusterState } from '@krypton/kube-testenv';
import {
  buildProposalSecret,
  deletedSecretSummary,
  kryptonKeys,
  proposalName,
} from '@krypton/core';
import type { NativeSecret } from '@krypton/core';
import {
  allowAll,
  b64,
  describeLocalCluster,
  kryptonEngines,
  text,
  useRecorderHarness,
} from './__testUtils__/recorderHarness';

jest.setTimeout(30_000);

const MARK = 'krypton.io/history-cleaned-at';

describeLocalCluster(
  'the recorder, called by a real kube-apiserver for a delete',
  () => {
    const { ns, admin, log, managed, kubectl, historyOf, patchValue } =
      useRecorderHarness('krypton-recdel');

    const outsider = () =>
      `kubernetes:${testClusterState().identities.admin.user}`;

    /** What the recorder answered for one Secret of this namespace, in order. */
    const reviews = (name: string) =>
      log
        .filter(l => l.namespace === ns.name && l.name === name)
        .map(l => [l.operation, l.outcome]);

    /** Whether the Secret is gone from the API server. */
    const gone = async (name: string) =>
      (await admin.getSecret(ns.name, name)).status === 404;

    /** A managed Secret at `first`, changed to `second` by Krypton's engine: v1 is in history. */
    async function updatedByKrypton(name: string) {
      const created = await admin.createSecret(
        ns.name,
        managed(name, { password: 'first' }),
      );
      const updated = await kryptonEngines().versioned.update(
        ns.name,
        name,
        {
          resourceVersion: created.metadata.resourceVersion,
          data: { password: 'second' },
        },
        allowAll,
      );
      return { created, updated };
    }

    /** Krypton's delete of a Secret at the revision that its update left. */
    const deleteByKrypton = (
      updated: { secret: NativeSecret },
      keepHistory: boolean,
    ) =>
      kryptonEngines().versioned.delete(
        ns.name,
        updated.secret.metadata.name!,
        {
          resourceVersion: updated.secret.metadata.resourceVersion!,
          keepHistory,
        },
        allowAll,
      );

    it('keeps the final state of a kubectl delete as the last version, and the history stays', async () => {
      const created = await admin.createSecret(
        ns.name,
        managed('deleted-by-kubectl', { password: 'first' }),
      );
      await patchValue('deleted-by-kubectl', 'second');
      const before = await admin.secret(ns.name, 'deleted-by-kubectl');
      expect(before.metadata.annotations?.['krypton.io/version']).toBe('2');

      await kubectl(['delete', 'secret', 'deleted-by-kubectl']);

      expect(await gone('deleted-by-kubectl')).toBe(true);
      expect(await historyOf(created.metadata.uid)).toEqual([
        {
          version: 1,
          by: outsider(),
          via: 'kubectl-patch',
          sourceResourceVersion: created.metadata.resourceVersion,
          finalState: false,
          data: { password: 'first' },
        },
        {
          version: 2,
          by: outsider(),
          via: undefined,
          sourceResourceVersion: before.metadata.resourceVersion,
          finalState: true,
          data: { password: 'second' },
        },
      ]);
      expect(reviews('deleted-by-kubectl')).toEqual([
        ['UPDATE', 'recorded'],
        ['DELETE', 'recorded'],
      ]);
    });

    it('lists a kubectl-deleted Secret with its deleter, and recreates it from the final state into a new lifetime', async () => {
      const name = 'recovered-after-kubectl';
      const created = await admin.createSecret(
        ns.name,
        managed(name, { password: 'first' }),
      );
      await patchValue(name, 'second');
      await kubectl(['delete', 'secret', name]);
      const oldUid = created.metadata.uid;
      const kept = await historyOf(oldUid);

      const engines = kryptonEngines();
      const [listed] = (await engines.deleted.list(ns.name)).filter(
        l => l.owner.name === name,
      );
      expect(listed.owner.uid).toBe(oldUid);
      expect(listed.nameTaken).toBe(false);
      const summary = deletedSecretSummary(listed);
      expect(summary.deletedBy).toBe(outsider());
      expect(
        summary.versions.map(v => [v.version, v.finalState ?? false]),
      ).toEqual([
        [2, true],
        [1, false],
      ]);

      const recreated = await engines.deleted.recreate(
        ns.name,
        name,
        { uid: oldUid, version: 2 },
        () => undefined,
      );
      expect(recreated.metadata.uid).not.toBe(oldUid);
      expect(text(recreated.data?.password)).toBe('second');
      expect(recreated.metadata.annotations?.['krypton.io/version']).toBe('1');

      // The new Secret's outside changes start its own history; the old one is untouched.
      await patchValue(name, 'third');
      expect(
        (await historyOf(recreated.metadata.uid!)).map(v => [
          v.version,
          v.data,
        ]),
      ).toEqual([[1, { password: 'second' }]]);
      expect(await historyOf(oldUid)).toEqual(kept);
      const [after] = (await engines.deleted.list(ns.name)).filter(
        l => l.owner.name === name,
      );
      expect(after.nameTaken).toBe(true);
      expect(after.owner.uid).toBe(oldUid);
    });

    it("keeps nothing of Krypton's own delete with history cleanup", async () => {
      const { created, updated } = await updatedByKrypton('cleaned-by-krypton');
      const uid = created.metadata.uid;
      // The history that the delete must clean exists.
      expect((await historyOf(uid)).map(v => [v.version, v.data])).toEqual([
        [1, { password: 'first' }],
      ]);

      const outcome = await deleteByKrypton(updated, false);

      expect(outcome).toEqual({
        result: { status: 'deleted', history: 'cleaned' },
        cleanup: { confirmedAbsent: 1, pending: 0, failed: 0 },
      });
      expect(await gone('cleaned-by-krypton')).toBe(true);
      expect(await historyOf(uid)).toEqual([]);
      expect(reviews('cleaned-by-krypton')).toEqual([
        // The engine's update, whose replaced state it saved itself.
        ['UPDATE', 'already-saved'],
        // The mark, a metadata-only write.
        ['UPDATE', 'metadata-only'],
        ['DELETE', 'history-cleaned'],
      ]);
    });

    it("keeps the final state of Krypton's own delete with keepHistory", async () => {
      const { created, updated } = await updatedByKrypton('kept-by-krypton');

      const outcome = await deleteByKrypton(updated, true);

      expect(outcome).toEqual({
        result: { status: 'deleted', history: 'kept' },
      });
      expect(await gone('kept-by-krypton')).toBe(true);
      expect(await historyOf(created.metadata.uid)).toEqual([
        {
          version: 1,
          by: 'user:default/alice',
          via: undefined,
          sourceResourceVersion: created.metadata.resourceVersion,
          finalState: false,
          data: { password: 'first' },
        },
        {
          version: 2,
          by: outsider(),
          via: undefined,
          sourceResourceVersion: updated.secret.metadata.resourceVersion,
          finalState: true,
          data: { password: 'second' },
        },
      ]);
      expect(reviews('kept-by-krypton')).toEqual([
        ['UPDATE', 'already-saved'],
        ['DELETE', 'recorded'],
      ]);
    });

    it('keeps the final state of a delete whose mark is stale', async () => {
      const created = await admin.createSecret(
        ns.name,
        managed('stale-mark', { password: 'first' }),
      );
      const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
      await kubectl([
        'annotate',
        'secret',
        'stale-mark',
        `${MARK}=${fiveMinutesAgo}`,
      ]);
      const marked = await admin.secret(ns.name, 'stale-mark');
      expect(marked.metadata.annotations?.[MARK]).toBe(fiveMinutesAgo);

      await kubectl(['delete', 'secret', 'stale-mark']);

      expect(await gone('stale-mark')).toBe(true);
      expect(await historyOf(created.metadata.uid)).toEqual([
        {
          version: 1,
          by: outsider(),
          via: undefined,
          sourceResourceVersion: marked.metadata.resourceVersion,
          finalState: true,
          data: { password: 'first' },
        },
      ]);
      expect(reviews('stale-mark')).toEqual([
        ['UPDATE', 'metadata-only'],
        ['DELETE', 'recorded'],
      ]);
    });

    it('drops a fresh mark at the next write, so a later delete keeps its final state', async () => {
      const created = await admin.createSecret(
        ns.name,
        managed('fresh-mark', { password: 'first' }),
      );
      const now = new Date().toISOString();
      await kubectl(['annotate', 'secret', 'fresh-mark', `${MARK}=${now}`]);
      const marked = await admin.secret(ns.name, 'fresh-mark');
      expect(marked.metadata.annotations?.[MARK]).toBe(now);

      await patchValue('fresh-mark', 'second');
      const patched = await admin.secret(ns.name, 'fresh-mark');
      expect(text(patched.data?.password)).toBe('second');
      expect(patched.metadata.annotations?.['krypton.io/version']).toBe('2');
      expect(patched.metadata.annotations).not.toHaveProperty([MARK]);

      await kubectl(['delete', 'secret', 'fresh-mark']);

      expect(await gone('fresh-mark')).toBe(true);
      expect(await historyOf(created.metadata.uid)).toEqual([
        {
          version: 1,
          by: outsider(),
          via: 'kubectl-patch',
          sourceResourceVersion: marked.metadata.resourceVersion,
          finalState: false,
          data: { password: 'first' },
        },
        {
          version: 2,
          by: outsider(),
          via: undefined,
          sourceResourceVersion: patched.metadata.resourceVersion,
          finalState: true,
          data: { password: 'second' },
        },
      ]);
      expect(reviews('fresh-mark')).toEqual([
        ['UPDATE', 'metadata-only'],
        ['UPDATE', 'recorded'],
        ['DELETE', 'recorded'],
      ]);
    });

    it('writes nothing for a dry-run delete', async () => {
      const created = await admin.createSecret(
        ns.name,
        managed('dry-delete', { password: 'first' }),
      );

      await kubectl(['delete', 'secret', 'dry-delete', '--dry-run=server']);

      const live = await admin.secret(ns.name, 'dry-delete');
      expect(live.metadata.uid).toBe(created.metadata.uid);
      expect(live.metadata.resourceVersion).toBe(
        created.metadata.resourceVersion,
      );
      expect(await historyOf(created.metadata.uid)).toEqual([]);
      // The recorder was asked, and answered the dry run without writing.
      expect(reviews('dry-delete')).toEqual([['DELETE', 'dry-run']]);
    });

    it("keeps nothing of a change request's proposal, whoever deletes it", async () => {
      const live = await admin.createSecret(
        ns.name,
        managed('proposed', { password: 'first' }),
      );
      const requestId = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
      const proposal = await admin.createSecret(
        ns.name,
        buildProposalSecret(
          live,
          {
            requestId,
            data: { password: b64('proposed') },
            by: 'user:default/alice',
            at: new Date().toISOString(),
          },
          kryptonKeys('krypton.io'),
        ) as unknown as Record<string, unknown>,
      );

      await kubectl(['delete', 'secret', proposalName(requestId)]);

      expect(await gone(proposalName(requestId))).toBe(true);
      expect(await historyOf(proposal.metadata.uid)).toEqual([]);
      // The webhook's object selector leaves proposals out: the recorder is not even called.
      expect(reviews(proposalName(requestId))).toEqual([]);
    });

    it('keeps nothing of an unmanaged Secret in a namespace not labelled for recording', async () => {
      const created = await admin.createSecret(ns.name, {
        metadata: { name: 'unrecorded' },
        type: 'Opaque',
        data: { password: b64('first') },
      });

      await kubectl(['delete', 'secret', 'unrecorded']);

      expect(await gone('unrecorded')).toBe(true);
      expect(await historyOf(created.metadata.uid)).toEqual([]);
      // Neither webhook's selectors match it: the recorder is not even called.
      expect(reviews('unrecorded')).toEqual([]);
    });

    it('keeps the final state of a Secret held by a finalizer once, when its delete is asked', async () => {
      const created = await admin.createSecret(ns.name, {
        ...managed('held', { password: 'first' }),
        metadata: {
          ...managed('held', {}).metadata,
          finalizers: ['example.com/hold'],
        },
      });
      try {
        await kubectl(['delete', 'secret', 'held', '--wait=false']);

        const terminating = await admin.secret(ns.name, 'held');
        expect(terminating.metadata.uid).toBe(created.metadata.uid);
        expect(terminating.metadata.deletionTimestamp).toEqual(
          expect.any(String),
        );
        expect(await historyOf(created.metadata.uid)).toEqual([
          {
            version: 1,
            by: outsider(),
            via: undefined,
            sourceResourceVersion: created.metadata.resourceVersion,
            finalState: true,
            data: { password: 'first' },
          },
        ]);
      } finally {
        await admin.patchSecret(ns.name, 'held', {
          metadata: { finalizers: null },
        });
      }
      // Releasing the finalizer ends the delete; it is a metadata-only write, not a version.
      expect(
        await eventually(
          () => gone('held'),
          done => done,
        ),
      ).toBe(true);
      expect(
        (await historyOf(created.metadata.uid)).map(v => [
          v.version,
          v.finalState,
        ]),
      ).toEqual([[1, true]]);
      expect(reviews('held')).toEqual([
        ['DELETE', 'recorded'],
        ['UPDATE', 'metadata-only'],
      ]);
    });
  },
);
