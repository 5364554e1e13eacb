import { ConfigReader } from '@backstage/config';
import { JsonObject } from '@backstage/types';
import { readKryptonConfig } from './config';
import { createClusters } from './kubernetes/clusters';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cluster = {
  name: 'local',
  url: 'https://127.0.0.1:6443',
  authProvider: 'serviceAccount',
  serviceAccountToken: 't',
};

describe('readKryptonConfig', () => {
  it('defaults to impersonation with entity refs as Kubernetes names', () => {
    const c = readKryptonConfig(new ConfigReader({}));
    expect(c).toMatchObject({
      identity: 'impersonation',
      annotationPrefix: 'krypton.io',
      userTemplate: '{{ref}}',
      groupTemplate: '{{ref}}',
      clusters: [],
    });
  });

  it("reads the Kubernetes plugin's config-type cluster locators", () => {
    const c = readKryptonConfig(
      new ConfigReader({
        kubernetes: {
          clusterLocatorMethods: [
            { type: 'catalog' },
            { type: 'config', clusters: [cluster] },
          ],
        },
      }),
    );
    expect(c.clusters).toEqual([
      {
        name: 'local',
        url: 'https://127.0.0.1:6443',
        serviceAccountToken: 't',
        caData: undefined,
        caFile: undefined,
        skipTLSVerify: false,
      },
    ]);
  });

  it('prefers krypton.clusters over the Kubernetes plugin block', () => {
    const c = readKryptonConfig(
      new ConfigReader({
        krypton: { clusters: [{ ...cluster, name: 'mine' }] },
        kubernetes: {
          clusterLocatorMethods: [{ type: 'config', clusters: [cluster] }],
        },
      }),
    );
    expect(c.clusters.map(x => x.name)).toEqual(['mine']);
  });

  it('rejects unknown identity modes and auth providers', () => {
    expect(() =>
      readKryptonConfig(
        new ConfigReader({ krypton: { kubernetes: { identity: 'root' } } }),
      ),
    ).toThrow(/identity must be one of/);
    expect(() =>
      readKryptonConfig(
        new ConfigReader({
          krypton: { clusters: [{ ...cluster, authProvider: 'oidc' }] },
        }),
      ),
    ).toThrow(/not supported/);
  });
});

describe('serviceAccount mode limits', () => {
  it('allow no namespace and the common types by default', () => {
    const c = readKryptonConfig(new ConfigReader({}));
    expect([...c.serviceAccountMode.namespaces]).toEqual([]);
    expect([...c.serviceAccountMode.secretTypes]).toEqual([
      'Opaque',
      'kubernetes.io/basic-auth',
      'kubernetes.io/ssh-auth',
      'kubernetes.io/tls',
      'kubernetes.io/dockerconfigjson',
    ]);
  });

  it('read the configured namespaces and types, and refuse what is not one', () => {
    const read = (serviceAccountMode: JsonObject) =>
      readKryptonConfig(
        new ConfigReader({ krypton: { kubernetes: { serviceAccountMode } } }),
      ).serviceAccountMode;
    const limits = read({ namespaces: ['team-a'], secretTypes: ['Opaque'] });
    expect([...limits.namespaces]).toEqual(['team-a']);
    expect([...limits.secretTypes]).toEqual(['Opaque']);
    expect(() => read({ namespaces: ['Team A'] })).toThrow(/namespaces/);
    expect(() => read({ secretTypes: ['not a type'] })).toThrow(/secretTypes/);
  });

  it('refuse extra groups that would not reach Kubernetes as written', () => {
    for (const group of [' system:masters', 'a\nb', 'caf\u00e9']) {
      expect(() =>
        readKryptonConfig(
          new ConfigReader({
            krypton: {
              kubernetes: { impersonation: { extraGroups: [group] } },
            },
          }),
        ),
      ).toThrow(/extraGroups/);
    }
  });
});

describe('krypton.admins', () => {
  it('normalizes refs like every other entity ref, and refuses what is not one', () => {
    expect(
      readKryptonConfig(
        new ConfigReader({
          krypton: { admins: ['user:Alice', 'Group:Ops/Platform'] },
        }),
        {},
      ).admins,
    ).toEqual(['user:default/alice', 'group:ops/platform']);
    expect(() =>
      readKryptonConfig(
        new ConfigReader({ krypton: { admins: ['component:default/x'] } }),
        {},
      ),
    ).toThrow(/not a user or group entity ref/);
  });
});

describe('krypton.notifications', () => {
  const read = (notifications: JsonObject) =>
    readKryptonConfig(new ConfigReader({ krypton: { notifications } }), {})
      .notifications;

  it('is off by default, with every event once it is enabled', () => {
    const off = readKryptonConfig(new ConfigReader({}), {}).notifications;
    expect(off.enabled).toBe(false);
    const all = ['update', 'restore', 'delete', 'restart', 'change-request'];
    expect([...off.events]).toEqual(all);
    const on = read({ enabled: true });
    expect(on.enabled).toBe(true);
    expect([...on.events]).toEqual(all);
  });

  it('keeps only the listed events; an empty list sends nothing', () => {
    expect([
      ...read({ enabled: true, events: ['delete', 'restart', 'delete'] })
        .events,
    ]).toEqual(['delete', 'restart']);
    expect(read({ enabled: true, events: [] }).events.size).toBe(0);
  });

  it('refuses an event that is not one of the four, and a non-boolean switch', () => {
    expect(() => read({ events: ['update', 'Delete'] })).toThrow(
      'krypton.notifications.events: "Delete" is not one of update, restore, delete, restart',
    );
    expect(() => read({ events: ['create'] })).toThrow(/"create" is not one/);
    expect(() => read({ enabled: 'sometimes' })).toThrow(/enabled/);
    expect(() => read({ events: 'update' })).toThrow(/events/);
  });
});

describe('krypton.ownedSecrets', () => {
  const rules = (ownedSecrets?: object) =>
    readKryptonConfig(
      new ConfigReader({
        krypton: ownedSecrets === undefined ? {} : { ownedSecrets },
      }),
      {},
    ).ownedSecrets;
  const read = (allowEdits?: unknown) =>
    rules(allowEdits === undefined ? undefined : { allowEdits }).allowEdits;

  it('allows no owner by default, and the tools it lists', () => {
    expect(read()).toEqual([]);
    expect(read(['sealed-secrets', 'controller'])).toEqual([
      'sealed-secrets',
      'controller',
    ]);
  });

  it('refuses a name that is not a tool Krypton recognises', () => {
    expect(() => read(['helm', 'ExternalSecret'])).toThrow(
      'krypton.ownedSecrets.allowEdits: "ExternalSecret" is not one of external-secrets, sealed-secrets, vault-secrets-operator, infisical, argocd, flux, helm, cert-manager, controller',
    );
    expect(() => read('helm')).toThrow(/allowEdits/);
  });

  it("takes Argo CD's instance label where the installation tracks by label, and only a label key", () => {
    expect(rules()).not.toHaveProperty('argoCdInstanceLabel');
    expect(
      rules({ argoCdInstanceLabel: 'app.kubernetes.io/instance' })
        .argoCdInstanceLabel,
    ).toBe('app.kubernetes.io/instance');
    expect(() => rules({ argoCdInstanceLabel: 'not a/label/key' })).toThrow(
      'krypton.ownedSecrets.argoCdInstanceLabel: "not a/label/key" is not a label key',
    );
  });
});

describe('krypton.storageRewrite.timeLimitMinutes', () => {
  const read = (timeLimitMinutes: number | string) =>
    readKryptonConfig(
      new ConfigReader({ krypton: { storageRewrite: { timeLimitMinutes } } }),
      {},
    ).storageRewriteTimeLimitMs;

  it('defaults to an hour and reads whole minutes', () => {
    expect(
      readKryptonConfig(new ConfigReader({}), {}).storageRewriteTimeLimitMs,
    ).toBe(3_600_000);
    expect(read(1)).toBe(60_000);
    expect(read(1440)).toBe(86_400_000);
  });

  it('refuses what is not a whole number of minutes from 1 to 1440', () => {
    for (const bad of [0, 1441, 1.5, -5]) {
      expect(() => read(bad)).toThrow(
        'krypton.storageRewrite.timeLimitMinutes must be a whole number of minutes from 1 to 1440',
      );
    }
    expect(() => read('ten')).toThrow(/timeLimitMinutes/);
  });
});

describe('environment variables', () => {
  it('win over app-config and keep their exact validation', () => {
    const config = new ConfigReader({
      krypton: {
        historyLimit: 50,
        restart: { enabled: true },
        managedOnly: true,
      },
    });
    expect(readKryptonConfig(config, {})).toMatchObject({
      historyLimit: { ok: true, value: 50 },
      restartEnabled: true,
      managedOnly: true,
    });
    expect(
      readKryptonConfig(config, {
        KRYPTON_HISTORY_LIMIT: '',
        KRYPTON_RESTART_ENABLED: 'yes',
        KRYPTON_MANAGED_ONLY: 'false',
      }),
    ).toMatchObject({
      historyLimit: { ok: false },
      restartEnabled: false,
      managedOnly: false,
    });
  });

  it('default to a history limit of 20, restart off and managed-only on', () => {
    expect(readKryptonConfig(new ConfigReader({}), {})).toMatchObject({
      historyLimit: { ok: true, value: 20 },
      restartEnabled: false,
      managedOnly: true,
    });
  });
});

describe('createClusters', () => {
  it('refuses a plain-HTTP cluster without skipTLSVerify at start-up', () => {
    const { clusters } = readKryptonConfig(
      new ConfigReader({
        krypton: { clusters: [{ ...cluster, url: 'http://127.0.0.1:8080' }] },
      }),
      {},
    );
    expect(() => createClusters(clusters)).toThrow(
      /uses http; set skipTLSVerify/,
    );
    expect(
      createClusters([{ ...clusters[0], skipTLSVerify: true }]),
    ).toHaveLength(1);
  });

  it('gives every transport the deadline of krypton.kubernetes.requestTimeoutMs', async () => {
    const read = (requestTimeoutMs?: number | string) => {
      try {
        return readKryptonConfig(
          new ConfigReader({ krypton: { kubernetes: { requestTimeoutMs } } }),
          {},
        ).requestTimeoutMs;
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect([undefined, 1, 250, 600_000].map(read)).toEqual([
      30_000, 1, 250, 600_000,
    ]);
    expect([0, -1, 1.5, 600_001].map(read)).toEqual(
      Array(4).fill(
        'krypton.kubernetes.requestTimeoutMs must be a whole number of milliseconds from 1 to 600000',
      ),
    );
    expect(read('soon')).toEqual(expect.stringContaining('requestTimeoutMs'));

    // A server that never answers: the request fails at the configured deadline.
    const server = http.createServer(() => undefined);
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const config = readKryptonConfig(
      new ConfigReader({
        krypton: {
          kubernetes: { requestTimeoutMs: 200 },
          clusters: [
            {
              ...cluster,
              url: `http://127.0.0.1:${port}`,
              skipTLSVerify: true,
            },
          ],
        },
      }),
      {},
    );
    const [c] = createClusters(config.clusters, {
      deadlineMs: config.requestTimeoutMs,
    });
    const started = Date.now();
    try {
      await expect(
        c.transport.request({ method: 'GET', path: '/version' }),
      ).rejects.toMatchObject({
        name: 'KubeTransportError',
        reason: 'timeout',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      c.transport.close();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('credentials', () => {
  const noToken = { ...cluster, serviceAccountToken: undefined };
  const missing = join(tmpdir(), 'krypton-no-such-token');

  it('refuses a cluster without a token outside a cluster, rather than sending anonymous requests', () => {
    expect(() =>
      createClusters([{ ...noToken, skipTLSVerify: false }], {
        inClusterTokenFile: missing,
      }),
    ).toThrow(/would send anonymous requests/);
  });

  it("uses the pod's ServiceAccount token file when there is one", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krypton-sa-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'projected-token\n');
    const seen: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end('{}');
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const [c] = createClusters(
      [{ ...noToken, url: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      { inClusterTokenFile: tokenFile },
    );
    await c.transport.request({ method: 'GET', path: '/version' });
    c.transport.close();
    server.close();
    expect(seen).toEqual(['Bearer projected-token']);
  });

  it('refuses a default kubeconfig without credentials', () => {
    const dir = mkdtempSync(join(tmpdir(), 'krypton-kc-'));
    const kubeconfig = join(dir, 'config');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'nobody', user: {} }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'nobody' } }],
        'current-context': 'c',
      }),
    );
    const previous = process.env.KUBECONFIG;
    process.env.KUBECONFIG = kubeconfig;
    try {
      expect(() => createClusters([])).toThrow(/no credentials/);
    } finally {
      if (previous === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = previous;
    }
  });
});

describe('krypton.approval.rules', () => {
  const read = (rules: unknown) =>
    readKryptonConfig(
      new ConfigReader({ krypton: { approval: { rules } } } as JsonObject),
      {},
    ).approvalRules;

  it('is no rule by default, and keeps valid rules in order', () => {
    expect(readKryptonConfig(new ConfigReader({}), {}).approvalRules).toEqual(
      [],
    );
    const rules = read([
      { namespaces: ['prod-*'], requiredApprovals: 2 },
      {
        labelSelector: 'tier=critical',
        requiredApprovals: 1,
        enforcement: 'soft',
        bypassGroups: ['group:default/sre'],
      },
    ]);
    expect(rules.map(r => [r.namespaces, r.requiredApprovals])).toEqual([
      [['prod-*'], 2],
      [undefined, 1],
    ]);
    expect(rules[1].bypassGroups).toEqual(['group:default/sre']);
  });

  it('stops the start on an invalid rule, naming the field', () => {
    expect(() => read([{ requiredApprovals: 6 }])).toThrow(
      'krypton.approval.rules[0].requiredApprovals must be a whole number from 1 to 5',
    );
    expect(() => read([{ requiredApprovals: 1, enforcement: 'soft' }])).toThrow(
      /bypassGroups must name who may bypass a soft rule/,
    );
  });
});
