import { ClusterAdmin, useTestNamespace } from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/** A delivery pipeline that applies the Secret with server-side apply, as Helm 4 and Argo CD can. */
const PIPELINE = 'ci-pipeline';

interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  fieldsV1?: { 'f:data'?: Record<string, unknown> };
}

interface ApplyConflict {
  reason?: string;
  details?: {
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
  };
}

describe('field ownership: a Krypton edit of data that another manager applies', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const secrets = () => `/api/krypton/namespaces/${ns.name}/secrets`;

  /** The pipeline's server-side apply of the Secret with this password, forced or not. */
  const apply = (password: string, force = false) =>
    admin.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns.name}/secrets/db`,
      query: { fieldManager: PIPELINE, ...(force ? { force: 'true' } : {}) },
      contentType: 'application/apply-patch+yaml',
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'db',
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { password: b64(password), user: b64('app') },
      },
    });

  const dataOwners = async () => {
    const stored = await admin.secret(ns.name, 'db');
    const entries = (stored.metadata.managedFields ??
      []) as ManagedFieldsEntry[];
    return entries
      .filter(e => e.fieldsV1?.['f:data'])
      .map(e => ({
        manager: e.manager,
        operation: e.operation,
        keys: Object.keys(e.fieldsV1!['f:data']!).sort(),
      }));
  };

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });

  it("makes that manager's next apply conflict with `krypton`, which the summary predicts", async () => {
    expect((await apply('one')).status).toBe(201);
    const summary = await request(krypton.server)
      .get(`${secrets()}/db/summary`)
      .set('Authorization', as('alice'));
    expect(summary.status).toBe(200);
    expect(summary.body.dataAppliedBy).toEqual([PIPELINE]);
    expect(summary.body).not.toHaveProperty('owner');

    const updated = await request(krypton.server)
      .put(`${secrets()}/db`)
      .set('Authorization', as('alice'))
      .send({
        resourceVersion: summary.body.resourceVersion,
        data: { password: 'two', user: 'app' },
      });
    expect(updated.status).toBe(200);
    // Krypton's write took the changed key from the pipeline; the unchanged one stays shared.
    expect(await dataOwners()).toEqual(
      expect.arrayContaining([
        { manager: PIPELINE, operation: 'Apply', keys: ['f:user'] },
        { manager: 'krypton', operation: 'Update', keys: ['f:password'] },
      ]),
    );

    // The pipeline applies its own value again: the API server refuses it, naming Krypton.
    const conflict = await apply('one');
    expect(conflict.status).toBe(409);
    const body = conflict.body as ApplyConflict;
    expect(body.reason).toBe('Conflict');
    expect(body.details?.causes).toEqual([
      expect.objectContaining({
        reason: 'FieldManagerConflict',
        field: '.data.password',
        message: expect.stringContaining('conflict with "krypton"'),
      }),
    ]);
    expect((await admin.secret(ns.name, 'db')).data?.password).toBe(b64('two'));

    // Applying the value Krypton wrote is no conflict: both then own it.
    expect((await apply('two')).status).toBe(200);

    // Forced, as `--force-conflicts` does, the pipeline takes the field and its value back.
    expect((await apply('three', true)).status).toBe(200);
    expect((await admin.secret(ns.name, 'db')).data?.password).toBe(
      b64('three'),
    );
    expect(await dataOwners()).toEqual([
      { manager: PIPELINE, operation: 'Apply', keys: ['f:password', 'f:user'] },
    ]);
  });
});
