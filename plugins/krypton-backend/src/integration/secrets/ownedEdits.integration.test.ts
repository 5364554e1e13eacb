import {
  ClusterAdmin,
  createOwner,
  installOwnerKinds,
  OWNER_KINDS,
  OwnerKind,
  useTestNamespace,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const MANAGED = { 'krypton.io/managed-by': 'krypton' };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The refusal's first sentence names the owner and what it does; the second is fixed. */
const ownerSentence = (owner: string, second: string) =>
  new RegExp(
    `^This Secret is owned by ${escape(owner)}, (which|whose) [^.]+\\. ${escape(
      second,
    )}$`,
  );

interface Metadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: object[];
}

/**
 * Each owner as its tool marks the Secrets it writes: by an owner reference to an object of the
 * tool's real kind (created before each Secret), or by the tool's labels and annotations. The
 * tool and the owner as a refusal names it.
 */
const OWNERS: Array<{
  name: string;
  tool: string;
  owner: string;
  controller?: OwnerKind;
  metadata?: Metadata;
}> = [
  {
    name: 'eso',
    tool: 'external-secrets',
    owner: 'External Secrets (ExternalSecret eso-source)',
    controller: OWNER_KINDS.ExternalSecret,
  },
  {
    name: 'eso-merged',
    tool: 'external-secrets',
    owner: 'External Secrets (ExternalSecret)',
    metadata: {
      labels: { 'reconcile.external-secrets.io/managed': 'true' },
      annotations: { 'reconcile.external-secrets.io/data-hash': 'a1b2' },
    },
  },
  {
    name: 'sealed',
    tool: 'sealed-secrets',
    owner: 'Sealed Secrets (SealedSecret sealed-source)',
    controller: OWNER_KINDS.SealedSecret,
  },
  {
    name: 'sealed-adopted',
    tool: 'sealed-secrets',
    owner: 'Sealed Secrets (SealedSecret)',
    metadata: { annotations: { 'sealedsecrets.bitnami.com/managed': 'true' } },
  },
  {
    name: 'vault',
    tool: 'vault-secrets-operator',
    owner: 'Vault Secrets Operator (VaultStaticSecret vault-source)',
    controller: OWNER_KINDS.VaultStaticSecret,
  },
  {
    name: 'vault-label',
    tool: 'vault-secrets-operator',
    owner: 'Vault Secrets Operator',
    metadata: { labels: { 'app.kubernetes.io/managed-by': 'hashicorp-vso' } },
  },
  {
    name: 'infisical',
    tool: 'infisical',
    owner: 'Infisical (InfisicalSecret infisical-source)',
    controller: OWNER_KINDS.InfisicalSecret,
  },
  {
    name: 'argo',
    tool: 'argocd',
    owner: 'Argo CD (Application payments)',
    metadata: {
      annotations: {
        'argocd.argoproj.io/tracking-id': 'payments:/Secret:apps/argo',
      },
    },
  },
  {
    name: 'flux',
    tool: 'flux',
    owner: 'Flux (Kustomization apps)',
    metadata: {
      labels: {
        'kustomize.toolkit.fluxcd.io/name': 'apps',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      },
    },
  },
  {
    name: 'flux-helm',
    tool: 'flux',
    owner: 'Flux (HelmRelease api)',
    metadata: {
      labels: {
        'helm.toolkit.fluxcd.io/name': 'api',
        'helm.toolkit.fluxcd.io/namespace': 'apps',
      },
    },
  },
  {
    name: 'helm',
    tool: 'helm',
    owner: 'Helm (Release api)',
    metadata: {
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: {
        'meta.helm.sh/release-name': 'api',
        'meta.helm.sh/release-namespace': 'apps',
      },
    },
  },
  {
    name: 'tls',
    tool: 'cert-manager',
    owner: 'cert-manager (Certificate web)',
    metadata: { annotations: { 'cert-manager.io/certificate-name': 'web' } },
  },
  {
    name: 'tls-owned',
    tool: 'cert-manager',
    owner: 'cert-manager (Certificate tls-owned-source)',
    controller: OWNER_KINDS.Certificate,
  },
  {
    name: 'widget',
    tool: 'controller',
    owner: 'a controller (Application widget-source)',
    // Argo CD's Application kind does not control Secrets: as an owner reference it is any
    // other controller's.
    controller: OWNER_KINDS.Application,
  },
];

const ALL_TOOLS = [...new Set(OWNERS.map(o => o.tool))];

describe('edits of Secrets that another tool owns', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let refusing: KryptonTestBackend;
  let allowing: KryptonTestBackend;
  const secrets = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const owners = new Map<string, object>();

  /** An owned Secret, managed by Krypton unless `unmanaged`, with data k=v. */
  async function createOwned(
    spec: (typeof OWNERS)[number],
    name: string,
    unmanaged = false,
  ) {
    const metadata: Metadata = { ...spec.metadata };
    if (spec.controller) {
      // One owning object per owner, controlling each of its Secrets, as a tool's would.
      let owner = owners.get(spec.name);
      if (!owner) {
        owner = await createOwner(
          admin,
          ns.name,
          spec.controller,
          `${spec.name}-source`,
        );
        owners.set(spec.name, owner);
      }
      metadata.ownerReferences = [owner];
    }
    await admin.createSecret(ns.name, {
      metadata: {
        ...metadata,
        name,
        labels: { ...(unmanaged ? {} : MANAGED), ...metadata.labels },
        annotations: {
          ...(unmanaged ? {} : { 'krypton.io/version': '1' }),
          ...metadata.annotations,
        },
      },
      data: { k: b64('v') },
    });
    const stored = await admin.secret(ns.name, name);
    return stored.metadata.resourceVersion;
  }

  beforeAll(async () => {
    await installOwnerKinds(admin);
    refusing = await startKryptonBackend();
    allowing = await startKryptonBackend({
      ownedSecrets: { allowEdits: ALL_TOOLS },
    });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
  });
  afterAll(async () => {
    await refusing.stop();
    await allowing.stop();
    admin.close();
  });

  it.each(OWNERS)(
    'refuses by default to update, restore, adopt or delete a Secret owned through $name, and changes nothing',
    async spec => {
      const rv = await createOwned(spec, spec.name);
      const unmanagedRv = await createOwned(spec, `${spec.name}-u`, true);
      const krypton = refusing.server;
      const summary = await request(krypton)
        .get(`${secrets()}/${spec.name}/summary`)
        .set('Authorization', as('alice'));
      expect(summary.body.owner).toMatchObject({
        tool: spec.tool,
        edits: 'refused',
      });

      const answers = {
        update: await request(krypton)
          .put(`${secrets()}/${spec.name}`)
          .set('Authorization', as('alice'))
          .send({
            resourceVersion: rv,
            data: { k: 'w' },
            ownedEditReason: 'a reason does not lift a refusal',
          }),
        restore: await request(krypton)
          .post(`${secrets()}/${spec.name}/restore`)
          .set('Authorization', as('alice'))
          .send({ version: 1, resourceVersion: rv }),
        delete: await request(krypton)
          .delete(`${secrets()}/${spec.name}`)
          .query({ resourceVersion: rv })
          .set('Authorization', as('alice')),
        adopt: await request(krypton)
          .post(`${secrets()}/${spec.name}-u/adopt`)
          .set('Authorization', as('alice'))
          .send({ resourceVersion: unmanagedRv }),
      };
      for (const [operation, res] of Object.entries(answers)) {
        expect({ operation, status: res.status }).toEqual({
          operation,
          status: 409,
        });
        expect(res.body.error).toMatch(
          ownerSentence(
            spec.owner,
            `Krypton does not ${operation} a Secret that another tool owns on this deployment: change it at its source.`,
          ),
        );
      }
      // Nothing was written: the same revisions, and no history snapshot.
      expect(
        (await admin.secret(ns.name, spec.name)).metadata.resourceVersion,
      ).toBe(rv);
      expect(
        (await admin.secret(ns.name, `${spec.name}-u`)).metadata
          .resourceVersion,
      ).toBe(unmanagedRv);
      const snapshots = await admin.snapshots(ns.name);
      expect(
        snapshots.filter(
          s => s.metadata.annotations?.['krypton.io/history-of'] === spec.name,
        ),
      ).toEqual([]);
    },
  );

  it.each(OWNERS)(
    'where the installation allows it, edits a Secret owned through $name only with a reason, which the audit records',
    async spec => {
      const name = `${spec.name}-ok`;
      const rv = await createOwned(spec, name);
      const unmanagedRv = await createOwned(spec, `${name}-u`, true);
      const krypton = allowing.server;
      const summary = await request(krypton)
        .get(`${secrets()}/${name}/summary`)
        .set('Authorization', as('alice'));
      expect(summary.body.owner).toMatchObject({
        tool: spec.tool,
        edits: 'reason-required',
      });

      const withoutReason = await request(krypton)
        .put(`${secrets()}/${name}`)
        .set('Authorization', as('alice'))
        .send({ resourceVersion: rv, data: { k: 'w' } });
      expect(withoutReason.status).toBe(409);
      expect(withoutReason.body.error).toMatch(
        ownerSentence(
          spec.owner,
          'To update it through Krypton anyway, give your reason ("ownedEditReason").',
        ),
      );

      const reason = `rotating ${name} during the store outage INC-7`;
      const updated = await request(krypton)
        .put(`${secrets()}/${name}`)
        .set('Authorization', as('alice'))
        .send({
          resourceVersion: rv,
          data: { k: 'w' },
          ownedEditReason: reason,
        });
      expect(updated.status).toBe(200);
      expect(updated.body.version).toBe(2);

      const restored = await request(krypton)
        .post(`${secrets()}/${name}/restore`)
        .set('Authorization', as('alice'))
        .send({
          version: 1,
          resourceVersion: updated.body.resourceVersion,
          ownedEditReason: reason,
        });
      expect(restored.status).toBe(200);
      expect(restored.body.version).toBe(3);

      const adopted = await request(krypton)
        .post(`${secrets()}/${name}-u/adopt`)
        .set('Authorization', as('alice'))
        .send({ resourceVersion: unmanagedRv, ownedEditReason: reason });
      expect(adopted.status).toBe(200);
      expect(adopted.body.managed).toBe(true);

      const deleted = await request(krypton)
        .delete(`${secrets()}/${name}`)
        .query({ resourceVersion: restored.body.resourceVersion })
        .set('Authorization', as('alice'))
        .send({ ownedEditReason: reason });
      expect(deleted.status).toBe(200);
      expect((await admin.getSecret(ns.name, name)).status).toBe(404);

      for (const eventId of [
        'secret-update',
        'secret-restore',
        'secret-adopt',
        'secret-delete',
      ]) {
        const event = allowing.sink.audits.find(
          a =>
            a.eventId === eventId &&
            a.status === 'succeeded' &&
            String(a.meta.name).startsWith(name),
        );
        expect(event).toMatchObject({
          severityLevel: 'high',
          meta: {
            ownedEditReason: reason,
            ownedBy: spec.owner,
            ownerTool: spec.tool,
          },
        });
      }
    },
  );

  it('lets an edit through where a setting on the Secret tells its owner to leave it', async () => {
    const spec = {
      name: 'flux-kept',
      tool: 'flux',
      owner: 'Flux (Kustomization apps)',
      metadata: {
        labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps' },
        annotations: { 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' },
      },
    };
    const rv = await createOwned(spec, spec.name);
    const updated = await request(refusing.server)
      .put(`${secrets()}/${spec.name}`)
      .set('Authorization', as('alice'))
      .send({ resourceVersion: rv, data: { k: 'w' } });
    expect(updated.status).toBe(200);
    expect(updated.body.owner).toMatchObject({
      outcome: 'kept',
      edits: 'allowed',
    });
    const event = refusing.sink.audits.find(
      a =>
        a.eventId === 'secret-update' &&
        a.status === 'succeeded' &&
        a.meta.name === spec.name,
    );
    expect(event?.meta).toMatchObject({ dataChanged: true });
    expect(event?.meta).not.toHaveProperty('ownedBy');
  });

  it('recognises Argo CD by its instance label only where the installation tracks by label', async () => {
    const rv = await createOwned(
      {
        name: 'argo-label',
        tool: 'argocd',
        owner: 'Argo CD (Application payments)',
        metadata: { labels: { 'app.kubernetes.io/instance': 'payments' } },
      },
      'argo-label',
    );
    const byLabel = await startKryptonBackend({
      ownedSecrets: { argoCdInstanceLabel: 'app.kubernetes.io/instance' },
    });
    try {
      const summary = await request(byLabel.server)
        .get(`${secrets()}/argo-label/summary`)
        .set('Authorization', as('alice'));
      expect(summary.body.owner).toEqual({
        tool: 'argocd',
        kind: 'Application',
        name: 'payments',
        outcome: 'reverted-at-sync',
        evidence: ['app.kubernetes.io/instance'],
        edits: 'refused',
      });
      const refused = await request(byLabel.server)
        .put(`${secrets()}/argo-label`)
        .set('Authorization', as('alice'))
        .send({ resourceVersion: rv, data: { k: 'w' } });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatch(
        ownerSentence(
          'Argo CD (Application payments)',
          'Krypton does not update a Secret that another tool owns on this deployment: change it at its source.',
        ),
      );
    } finally {
      await byLabel.stop();
    }
    // Without the setting the label is anyone's: the Secret is no tool's.
    const plain = await request(refusing.server)
      .get(`${secrets()}/argo-label/summary`)
      .set('Authorization', as('alice'));
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('owner');
  });

  it('tells a user without the right to edit nothing about the owner: the access gates answer first', async () => {
    const rv = await createOwned(OWNERS[0], 'eso-gated');
    // bob has no RBAC on this namespace's Secrets: Kubernetes refuses his read before any owner
    // check could run.
    for (const res of [
      await request(refusing.server)
        .put(`${secrets()}/eso-gated`)
        .set('Authorization', as('bob'))
        .send({ resourceVersion: rv, data: { k: 'w' } }),
      await request(refusing.server)
        .delete(`${secrets()}/eso-gated`)
        .query({ resourceVersion: rv })
        .set('Authorization', as('bob')),
    ]) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toMatch(/External Secrets|eso/);
    }
  });

  it('refuses a malformed reason with 400 before anything is read', async () => {
    for (const ownedEditReason of ['', 'two\nlines', 'x'.repeat(501), 7]) {
      const res = await request(allowing.server)
        .put(`${secrets()}/eso`)
        .set('Authorization', as('alice'))
        .send({ resourceVersion: '1', data: { k: 'w' }, ownedEditReason });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error:
          '"ownedEditReason" must be a reason of 1 to 500 characters, on one line.',
      });
    }
    for (const body of [{ ownedEditReason: 'a\tb' }, { reason: 'why' }]) {
      const res = await request(allowing.server)
        .delete(`${secrets()}/eso`)
        .query({ resourceVersion: '1' })
        .set('Authorization', as('alice'))
        .send(body);
      expect(res.status).toBe(400);
    }
    // In the URL it is no parameter of the delete's.
    const query = await request(allowing.server)
      .delete(`${secrets()}/eso`)
      .query({ resourceVersion: '1', ownedEditReason: 'why' })
      .set('Authorization', as('alice'));
    expect(query.status).toBe(400);
    expect(query.body).toEqual({
      error: 'Unknown query parameter "ownedEditReason".',
    });
  });
});
