import { ConfigReader } from '@backstage/config';
import { readKryptonConfig } from './config';
import { createClusters } from './kubernetes/clusters';

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
});
