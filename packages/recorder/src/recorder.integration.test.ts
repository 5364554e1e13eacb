import { testClusterState } from '@krypton/kube-testenv';
import { hash32, snapshotName } from '@krypton/core';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { RECORD_PATH } from './server';
import {
  allowAll,
  describeLocalCluster,
  b64,
  kryptonEngines,
  text,
  useRecorderHarness,
} from './__testUtils__/recorderHarness';

jest.setTimeout(30_000);

describeLocalCluster('the recorder, called by a real kube-apiserver', () => {
  const {
    ns,
    admin,
    log,
    recorder,
    managed,
    kubectl,
    register,
    history,
    patchValue,
    manifest,
  } = useRecorderHarness('krypton-rec');

  it('keeps the state that a kubectl patch replaces, as the next version, with who and how', async () => {
    const created = await admin.createSecret(
      ns.name,
      managed('patched', { password: 'first' }),
    );
    await kubectl([
      'patch',
      'secret',
      'patched',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ data: { password: b64('second') } }),
    ]);
    const live = await admin.secret(ns.name, 'patched');
    expect(text(live.data?.password)).toBe('second');
    expect(live.metadata.annotations?.['krypton.io/version']).toBe('2');
    expect(await history('patched')).toEqual([
      {
        version: 1,
        by: `kubernetes:${testClusterState().identities.admin.user}`,
        via: 'kubectl-patch',
        sourceResourceVersion: created.metadata.resourceVersion,
        finalState: false,
        data: { password: 'first' },
      },
    ]);
  });

  it.each([
    {
      tool: 'kubectl apply',
      via: 'kubectl-client-side-apply',
      write: (name: string) =>
        kubectl(['apply', '-f', '-'], manifest(name, 'second', '1')),
    },
    {
      tool: 'kubectl apply --server-side',
      via: 'kubectl',
      write: (name: string) =>
        kubectl(
          ['apply', '--server-side', '--force-conflicts', '-f', '-'],
          manifest(name, 'second', '1'),
        ),
    },
    {
      tool: 'kubectl replace',
      via: 'kubectl-replace',
      write: (name: string) =>
        kubectl(['replace', '-f', '-'], manifest(name, 'second', '1')),
    },
  ])(
    'keeps the replaced state of $tool and moves the counter, whatever counter the manifest carries',
    async ({ write, via }) => {
      const name = `w-${via}`.replace(/[^a-z0-9-]/g, '-');
      await kubectl(['apply', '-f', '-'], manifest(name, 'first', '1'));
      await write(name);
      const live = await admin.secret(ns.name, name);
      expect(text(live.data?.password)).toBe('second');
      expect(live.metadata.annotations?.['krypton.io/version']).toBe('2');
      const kept = await history(name);
      expect(kept.map(v => [v.version, v.via, v.data])).toEqual([
        [1, via, { password: 'first' }],
      ]);
    },
  );

  it('records nothing for a metadata-only change', async () => {
    await admin.createSecret(
      ns.name,
      managed('labels-only', { password: 'p' }),
    );
    await kubectl(['label', 'secret', 'labels-only', 'team=a']);
    await kubectl(['annotate', 'secret', 'labels-only', 'note=x']);
    const live = await admin.secret(ns.name, 'labels-only');
    expect(live.metadata.labels?.team).toBe('a');
    expect(live.metadata.annotations?.['krypton.io/version']).toBe('1');
    expect(await history('labels-only')).toEqual([]);
  });

  it('writes nothing for a dry run', async () => {
    await admin.createSecret(ns.name, managed('dry', { password: 'first' }));
    await patchValue('dry', 'second', ['--dry-run=server']);
    const live = await admin.secret(ns.name, 'dry');
    expect(text(live.data?.password)).toBe('first');
    expect(await history('dry')).toEqual([]);
  });

  it("saves no second snapshot for Krypton's own update and restore", async () => {
    const engines = kryptonEngines();
    const created = await admin.createSecret(
      ns.name,
      managed('own', { password: 'first' }),
    );
    const updated = await engines.versioned.update(
      ns.name,
      'own',
      {
        resourceVersion: created.metadata.resourceVersion,
        data: { password: 'second' },
      },
      allowAll,
    );
    await engines.versioned.restore(
      ns.name,
      'own',
      { version: 1, resourceVersion: updated.secret.metadata.resourceVersion! },
      allowAll,
    );
    const live = await admin.secret(ns.name, 'own');
    expect(text(live.data?.password)).toBe('first');
    expect(live.metadata.annotations?.['krypton.io/version']).toBe('3');
    const kept = await history('own');
    expect(kept.map(v => [v.version, v.by, v.via, v.data])).toEqual([
      [1, 'user:default/alice', undefined, { password: 'first' }],
      [2, 'user:default/alice', undefined, { password: 'second' }],
    ]);
    expect(log.filter(l => l.name === 'own').map(l => l.outcome)).toEqual([
      'already-saved',
      'already-saved',
    ]);
  });

  it('shares one snapshot between two writers racing from the same revision', async () => {
    const created = await admin.createSecret(
      ns.name,
      managed('raced', { password: 'first' }),
    );
    const put = (value: string) =>
      admin.request({
        method: 'PUT',
        path: `/api/v1/namespaces/${ns.name}/secrets/raced`,
        body: {
          ...managed('raced', { password: value }),
          metadata: {
            ...managed('raced', {}).metadata,
            resourceVersion: created.metadata.resourceVersion,
          },
        },
      });
    const answers = await Promise.all([put('a'), put('b')]);
    expect(answers.map(a => a.status).sort()).toEqual([200, 409]);
    const kept = await history('raced');
    expect(kept.map(v => [v.version, v.data])).toEqual([
      [1, { password: 'first' }],
    ]);
    expect(
      (await admin.secret(ns.name, 'raced')).metadata.annotations?.[
        'krypton.io/version'
      ],
    ).toBe('2');
  });

  it('prunes the oldest versions at the history limit', async () => {
    await admin.createSecret(ns.name, managed('pruned', { password: 'v1' }));
    for (const value of ['v2', 'v3', 'v4', 'v5'])
      await patchValue('pruned', value);
    const kept = await history('pruned');
    expect(kept.map(v => [v.version, v.data.password])).toEqual([
      [2, 'v2'],
      [3, 'v3'],
      [4, 'v4'],
    ]);
    expect(
      (await admin.secret(ns.name, 'pruned')).metadata.annotations?.[
        'krypton.io/version'
      ],
    ).toBe('5');
  });

  it('denies the write when the version slot holds other content', async () => {
    const created = await admin.createSecret(
      ns.name,
      managed('squatted', { password: 'first' }),
    );
    const uidHash = await hash32(created.metadata.uid);
    await admin.createSecret(ns.name, {
      metadata: { name: snapshotName(uidHash, 1) },
      type: 'Opaque',
      data: { password: b64('not the state') },
    });
    await expect(patchValue('squatted', 'second')).rejects.toThrow(
      /denied the request.*history/,
    );
    const live = await admin.secret(ns.name, 'squatted');
    expect(text(live.data?.password)).toBe('first');
    expect(live.metadata.resourceVersion).toBe(
      created.metadata.resourceVersion,
    );
  });

  it('adopts a Secret of a namespace labelled for recording at its first recorded change', async () => {
    await admin.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns.name}`,
      body: { metadata: { labels: { 'krypton.io/record-secrets': 'true' } } },
      contentType: 'application/merge-patch+json',
    });
    try {
      await admin.createSecret(ns.name, {
        metadata: { name: 'unmanaged' },
        type: 'Opaque',
        data: { password: b64('first') },
      });
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'sa-token',
          annotations: { 'kubernetes.io/service-account.name': 'default' },
        },
        type: 'kubernetes.io/service-account-token',
        data: { extra: b64('first') },
      });
      // The namespace selector reaches the authorizer's cache a moment late: retry the change
      // until it is recorded.
      let live = await admin.patchSecret(ns.name, 'unmanaged', {
        data: { password: b64('second') },
      });
      for (
        let i = 0;
        i < 50 && live.metadata.labels?.['krypton.io/managed-by'] !== 'krypton';
        i++
      ) {
        await new Promise(r => setTimeout(r, 100));
        live = await admin.patchSecret(ns.name, 'unmanaged', {
          data: { password: b64(`second-${i}`) },
        });
      }
      expect(live.metadata.labels?.['krypton.io/managed-by']).toBe('krypton');
      expect(live.metadata.annotations?.['krypton.io/version']).toBe('2');
      const kept = await history('unmanaged');
      expect(kept).toHaveLength(1);
      expect(kept[0].version).toBe(1);

      const token = await admin.patchSecret(ns.name, 'sa-token', {
        data: { extra: b64('second') },
      });
      expect(token.metadata.labels?.['krypton.io/managed-by']).toBeUndefined();
      expect(await history('sa-token')).toEqual([]);
    } finally {
      await admin.request({
        method: 'PATCH',
        path: `/api/v1/namespaces/${ns.name}`,
        body: { metadata: { labels: { 'krypton.io/record-secrets': null } } },
        contentType: 'application/merge-patch+json',
      });
    }
  });

  it('keeps the counter of a managed Secret from moving back on a metadata-only apply', async () => {
    await kubectl(['apply', '-f', '-'], manifest('rewound', 'first', '1'));
    await patchValue('rewound', 'second');
    // The same data as live, with the counter the manifest was written at.
    await kubectl(['apply', '-f', '-'], manifest('rewound', 'second', '1'));
    const live = await admin.secret(ns.name, 'rewound');
    expect(live.metadata.annotations?.['krypton.io/version']).toBe('2');
    await patchValue('rewound', 'third');
    expect(
      (await history('rewound')).map(v => [v.version, v.data.password]),
    ).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
  });

  describe('when the recorder does not answer', () => {
    afterEach(() => register({}));

    it('refuses recorded changes under failurePolicy Fail', async () => {
      await admin.createSecret(
        ns.name,
        managed('unanswered', { password: 'first' }),
      );
      // A loopback port that nothing listens on.
      await register({ url: 'https://127.0.0.1:1', probe: 'refused' });
      await expect(patchValue('unanswered', 'second')).rejects.toThrow(
        /failed calling webhook/,
      );
      const live = await admin.secret(ns.name, 'unanswered');
      expect(text(live.data?.password)).toBe('first');
      expect(await history('unanswered')).toEqual([]);
    });

    it('lets changes through unrecorded under failurePolicy Ignore: a gap in the history', async () => {
      await admin.createSecret(ns.name, managed('gap', { password: 'first' }));
      await register({
        url: 'https://127.0.0.1:1',
        failurePolicy: 'Ignore',
        probe: 'unrecorded',
      });
      await patchValue('gap', 'second');
      const live = await admin.secret(ns.name, 'gap');
      expect(text(live.data?.password)).toBe('second');
      expect(live.metadata.annotations?.['krypton.io/version']).toBe('1');
      expect(await history('gap')).toEqual([]);
    });
  });

  describe('forged reviews, sent to its port directly', () => {
    const post = async (
      body: string | Buffer,
      init: { method?: string; path?: string; type?: string } = {},
    ) => {
      const url = new URL(`${recorder().url}${init.path ?? RECORD_PATH}`);
      return new Promise<{ status: number; body: Record<string, unknown> }>(
        (resolve, reject) => {
          const req = https.request(
            url,
            {
              method: init.method ?? 'POST',
              ca: readFileSync(testClusterState().caFile),
              headers: { 'Content-Type': init.type ?? 'application/json' },
            },
            res => {
              const chunks: Buffer[] = [];
              res.on('data', c => chunks.push(c));
              res.on('end', () =>
                resolve({
                  status: res.statusCode ?? 0,
                  body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
                }),
              );
            },
          );
          req.on('error', reject);
          req.end(body);
        },
      );
    };

    const reviewOf = (request: Record<string, unknown>) =>
      JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: 'forged-1',
          kind: { group: '', version: 'v1', kind: 'Secret' },
          operation: 'UPDATE',
          namespace: ns.name,
          name: 'forged',
          userInfo: { username: 'mallory' },
          ...request,
        },
      });

    const secretObject = (
      uid: string,
      resourceVersion: string,
      password: string,
      name = 'forged',
    ) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      ...managed(name, { password }),
      metadata: {
        ...managed(name, {}).metadata,
        namespace: ns.name,
        uid,
        resourceVersion,
      },
    });

    it('archives nothing but the live state: a review whose stored object differs from it is denied', async () => {
      const live = await admin.createSecret(
        ns.name,
        managed('forged', { password: 'real' }),
      );
      const answer = await post(
        reviewOf({
          oldObject: secretObject(
            live.metadata.uid,
            live.metadata.resourceVersion,
            'invented',
          ),
          object: secretObject(
            live.metadata.uid,
            live.metadata.resourceVersion,
            'next',
          ),
        }),
      );
      expect(answer.status).toBe(200);
      expect(answer.body.response).toMatchObject({
        uid: 'forged-1',
        allowed: false,
        status: { code: 409 },
      });
      expect(await history('forged')).toEqual([]);
    });

    it('denies a review of a Secret that does not exist, and creates nothing', async () => {
      const answer = await post(
        reviewOf({
          name: 'nowhere',
          oldObject: secretObject('0000', '1', 'x', 'nowhere'),
          object: secretObject('0000', '1', 'y', 'nowhere'),
        }),
      );
      expect(answer.body.response).toMatchObject({
        allowed: false,
        status: { code: 404 },
      });
      const snapshots = await admin.snapshots(ns.name);
      expect(
        snapshots.filter(
          s => s.metadata.annotations?.['krypton.io/history-of'] === 'nowhere',
        ),
      ).toEqual([]);
    });

    it.each([
      { name: 'not JSON', body: '{', status: 400 },
      { name: 'JSON that is not a review', body: '[1,2]', status: 400 },
      {
        name: 'a review without a request uid',
        body: JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          request: {},
        }),
        status: 400,
      },
      {
        name: 'a Secret review with a malformed stored object',
        body: reviewOf({
          oldObject: { kind: 'Secret', metadata: 'x' },
          object: {},
        }),
        status: 400,
      },
      {
        name: 'a Secret review with data that is not base64',
        body: reviewOf({
          oldObject: { ...secretObject('u', '1', 'x'), data: { k: '!!' } },
          object: secretObject('u', '1', 'y'),
        }),
        status: 400,
      },
      {
        name: 'a body over the size limit',
        body: Buffer.alloc(7 * 1024 * 1024, 0x20),
        status: 413,
      },
      {
        name: 'another media type',
        body: '{}',
        type: 'text/plain',
        status: 415,
      },
      { name: 'another method', body: '', method: 'PUT', status: 405 },
      { name: 'another path', body: '{}', path: '/other', status: 404 },
    ])(
      'answers $name with $status and an error',
      async ({ body, status, ...init }) => {
        const answer = await post(body, init);
        expect(answer.status).toBe(status);
        expect(typeof answer.body.error).toBe('string');
      },
    );

    it('admits a review of another kind untouched', async () => {
      const answer = await post(
        reviewOf({ kind: { group: '', version: 'v1', kind: 'ConfigMap' } }),
      );
      expect(answer.body.response).toEqual({ uid: 'forged-1', allowed: true });
    });
  });
});
