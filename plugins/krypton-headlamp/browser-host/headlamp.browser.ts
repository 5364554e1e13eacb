import { launchBrowser } from '@krypton/browser-tests';
import {
  ClusterAdmin,
  createPod,
  createReplicaSet,
  createWorkload,
  kubeConfigFor,
  runningPod,
  setPodStatus,
  setWorkloadStatus,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, Locator, Page } from 'playwright-core';
import { headlampActor } from '../src/actor';
import { HeadlampKrypton, headlampKrypton } from '../src/engines';
import {
  CLUSTER,
  HeadlampSession,
  headlampAs,
  untilSecretsListable,
} from '../src/__testUtils__/testCluster';
import { HeadlampHost, PLUGIN_FOLDER, startHeadlampHost } from './hostServer';

const PACKAGE_DIR = resolve(__dirname, '..');
const PAGE_DIR = join(__dirname, 'dist');
const PLUGIN_MAIN = join(PACKAGE_DIR, 'dist', 'main.js');
const ARTIFACTS = resolve(PACKAGE_DIR, '../../browser-tests/artifacts');
const HEADLAMP_PLUGIN = '@kinvolk/headlamp-plugin';

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/** What Headlamp's loader reads of the plugin's package.json: name, version, its tooling. */
function pluginPackageJson(): Record<string, unknown> {
  const pkg = JSON.parse(
    readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'),
  ) as {
    name: string;
    version: string;
    devDependencies: Record<string, string>;
  };
  return {
    name: pkg.name,
    version: pkg.version,
    devDependencies: {
      [HEADLAMP_PLUGIN]: pkg.devDependencies[HEADLAMP_PLUGIN],
    },
  };
}

async function screenshot(target: Page | Locator, name: string) {
  await target.screenshot({ path: join(ARTIFACTS, `headlamp-${name}.png`) });
}

// The first page load parses Headlamp's whole frontend (about 10 MB of script) on a busy machine.
jest.setTimeout(60_000);

// Token identities exist only on the control plane that the test run starts.
const describeLocalCluster = process.env.KRYPTON_TEST_KUBECONFIG
  ? describe.skip
  : describe;

// Krypton's built plugin (dist/main.js) in the closest Headlamp this repository can build (see
// README.md, "The browser test"): Headlamp's own frontend modules, its plugin loader, store,
// router and Secret details view, in Chromium, against the real kube-apiserver, as alice, who
// holds only the RBAC granted here.
describeLocalCluster('Krypton in Headlamp, in Chromium', () => {
  const ns = useTestNamespace('krypton-hlb');
  let admin: ClusterAdmin;
  let alice: HeadlampSession;
  let krypton: HeadlampKrypton;
  let host: HeadlampHost;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  const secretUrl = (name: string) =>
    `${host.url}/c/${CLUSTER}/secrets/${ns.name}/${name}`;
  const part = (title: string) =>
    page.locator(`section[aria-label="${title}"]`);

  beforeAll(async () => {
    for (const [file, how] of [
      [PAGE_DIR, 'build:browser-host'],
      [PLUGIN_MAIN, 'build'],
    ]) {
      if (!existsSync(file))
        throw new Error(
          `${file} is missing: run yarn workspace @krypton/plugin-krypton-headlamp ${how}`,
        );
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    admin = new ClusterAdmin();
    alice = await headlampAs('alice');
    // The plugin's own actor: the name the API server gives alice's token.
    krypton = headlampKrypton({
      gateway: alice.gateway,
      cluster: CLUSTER,
      actor: headlampActor(alice.send),
    });
    await admin.grant(
      ns.name,
      'alice-secrets',
      { kind: 'User', name: 'alice' },
      [
        {
          apiGroups: [''],
          resources: ['secrets'],
          verbs: [
            'get',
            'list',
            'watch',
            'create',
            'update',
            'patch',
            'delete',
          ],
        },
        {
          apiGroups: ['apps'],
          resources: ['deployments', 'statefulsets', 'daemonsets'],
          verbs: ['get', 'list', 'patch'],
        },
        // Which version the consumers' pods hold: their pods, and a Deployment's ReplicaSets.
        { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
        { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list'] },
        // Headlamp's details view lists the object's events.
        { apiGroups: [''], resources: ['events'], verbs: ['list', 'watch'] },
      ],
    );
    await untilSecretsListable(alice, ns.name);

    // A managed Secret with one version in its history, edited through Krypton's engine as the
    // plugin edits; a plain Secret beside it; a Deployment that consumes the managed one, with a
    // pod that started on the first version (no controllers run here: the test makes the
    // ReplicaSet and the pod, and writes their status, as the controllers and the kubelet would).
    const created = await krypton.live.create(ns.name, {
      name: 'db',
      data: { password: 'pw-first' },
    });
    // The pod's start (to the second) must fall clearly before the change to hold version 1.
    const createdAt = new Date(created.metadata.creationTimestamp!);
    const wait = createdAt.getTime() + 1500 - Date.now();
    if (wait > 0) await new Promise(done => setTimeout(done, wait));
    await krypton.versioned.update(
      ns.name,
      'db',
      {
        resourceVersion: created.metadata.resourceVersion!,
        data: { password: 'pw-second' },
      },
      krypton.gate,
    );
    await admin.createSecret(ns.name, {
      metadata: { name: 'plain' },
      data: { token: b64('unmanaged') },
    });
    const webPod = {
      containers: [
        {
          name: 'app',
          image: 'example.invalid/app:1',
          envFrom: [{ secretRef: { name: 'db' } }],
        },
      ],
    };
    const web = await createWorkload(
      admin,
      ns.name,
      'Deployment',
      'web',
      webPod,
    );
    await setWorkloadStatus(admin, ns.name, 'Deployment', 'web', {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });
    const replicaSet = await createReplicaSet(
      admin,
      ns.name,
      web,
      '5d',
      webPod,
    );
    await createPod(
      admin,
      ns.name,
      'web-5d-a',
      { kind: 'ReplicaSet', object: replicaSet },
      webPod,
    );
    await setPodStatus(
      admin,
      ns.name,
      'web-5d-a',
      runningPod(['app'], createdAt),
    );

    const state = testClusterState();
    const token = kubeConfigFor('alice')?.getCurrentUser()?.token;
    if (!token) throw new Error('alice has no token on this cluster');
    host = await startHeadlampHost({
      pageDir: PAGE_DIR,
      pluginMain: PLUGIN_MAIN,
      pluginPackageJson: pluginPackageJson(),
      apiServer: state.server,
      caFile: state.caFile,
      cluster: CLUSTER,
      token,
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('request', r => requested.push(new URL(r.url()).pathname));
    // Headlamp draws its other icons from Iconify's web API; the test stays on the machine.
    await page.route(
      url => url.hostname !== '127.0.0.1',
      route => route.abort(),
    );
    page.setDefaultTimeout(20_000);
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await alice?.server.close();
    admin?.close();
  });

  it("shows Krypton's section with the History on a managed Secret, loaded by Headlamp's plugin loader", async () => {
    await page.goto(secretUrl('db'));
    const history = part('History');
    const row = history.getByRole('row').filter({ hasText: 'v1' });
    await row.waitFor();
    // Headlamp's loader fetched the built plugin from its plugins listing, as it does from
    // Headlamp's server.
    expect(requested).toEqual(
      expect.arrayContaining([
        '/plugins',
        `/plugins/${PLUGIN_FOLDER}/main.js`,
        `/plugins/${PLUGIN_FOLDER}/package.json`,
      ]),
    );
    expect(await history.getByRole('row').count()).toBe(2); // header and v1
    expect(await row.textContent()).toContain('headlamp:alice');

    // The version's masked diff against the Secret on screen: the one key changed.
    await history
      .getByRole('button', { name: 'Show what restoring v1 changes' })
      .click();
    await history
      .getByText('0 added, 0 removed, 1 changed, 0 unchanged.')
      .waitFor();

    const section = page
      .locator('div')
      .filter({ has: page.getByText('Krypton', { exact: true }) })
      .filter({ has: history })
      .last();
    await screenshot(section, 'section');
    await screenshot(history, 'history');
    // Any other part the section shows, and the Values section, where the plugin has them.
    for (const other of await section.locator('section[aria-label]').all()) {
      const title = await other.getAttribute('aria-label');
      if (title && title !== 'History' && title !== 'Consumers')
        await screenshot(other, title.toLowerCase().replace(/\W+/g, '-'));
    }
    await page.screenshot({
      path: join(ARTIFACTS, 'headlamp-secret-page.png'),
      fullPage: true,
    });
  });

  it("shows the Consumers part's dry run: the Deployment that uses the Secret", async () => {
    const consumers = part('Consumers');
    const table = consumers.getByRole('table', {
      name: 'Workloads that use this Secret',
    });
    const row = table.getByRole('row').filter({ hasText: 'web' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Deployment');
    expect(await row.textContent()).toContain('envFrom');
    expect(await table.getByRole('row').count()).toBe(2);
    await consumers
      .getByRole('button', { name: 'Restart consumers' })
      .waitFor();

    // Which version its pod holds: the engine's summary, and the pod grouped as stale.
    await consumers
      .getByRole('status', { name: 'Versions the pods hold' })
      .getByText(
        '1 of 1 pods still holds version 1; the live Secret is version 2',
      )
      .waitFor();
    const pods = consumers.getByRole('region', { name: 'Deployment web' });
    await pods
      .getByText('Rollout: 1 of 1 updated, 1 ready, 1 available')
      .waitFor();
    await pods.getByText('Stale', { exact: true }).waitFor();
    await pods.getByText('version 1, 1 pod').waitFor();
    await pods.getByText(/^stale for /).waitFor();
    await pods.getByRole('button', { name: 'Show pods' }).click();
    await pods
      .getByRole('table', { name: 'Pods of Deployment web: version 1' })
      .getByRole('rowheader', { name: /web-5d-a/ })
      .waitFor();
    await screenshot(consumers, 'consumers');
  });

  it("hides Headlamp's Edit action on the managed Secret only", async () => {
    // Delete is Headlamp's header action beside Edit: once it shows, the actions are drawn.
    await page.getByRole('button', { name: 'Delete' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'managed-header');

    await page.goto(secretUrl('plain'));
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await page
      .getByText('This Secret is not managed by Krypton', { exact: false })
      .waitFor();
    await screenshot(page, 'unmanaged-header');
  });

  it('restores v1 through the UI, and the API server holds its values', async () => {
    await page.goto(secretUrl('db'));
    const before = await admin.secret(ns.name, 'db');
    const history = part('History');
    await history.getByRole('button', { name: 'Restore v1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore v1?' });
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await history
      .getByText('Restored v1. The values it replaced are saved as v2.')
      .waitFor();

    const live = await admin.secret(ns.name, 'db');
    expect(live.data).toEqual({ password: b64('pw-first') });
    // Headlamp's own view follows the write through its watch (a WebSocket through the host):
    // its annotations show the restored revision's.
    const version = (s: typeof live) =>
      s.metadata.annotations?.['krypton.io/version'];
    expect(version(live)).toBeDefined();
    expect(version(live)).not.toBe(version(before));
    await page.getByText(`krypton.io/version: ${version(live)}`).waitFor();
    const snapshots = await admin.snapshots(ns.name);
    expect(snapshots.map(s => s.data)).toEqual(
      expect.arrayContaining([
        { password: b64('pw-first') },
        { password: b64('pw-second') },
      ]),
    );
    const v2 = history.getByRole('row').filter({ hasText: 'v2' });
    await v2.waitFor();
    // Saved by the plugin, as the name the API server gave alice's token (a SelfSubjectReview).
    expect(await v2.textContent()).toContain('headlamp:alice');
    await screenshot(history, 'history-restored');
  });

  it("puts Krypton's Values in place of Headlamp's Data section on the managed Secret only", async () => {
    // The plain Secret keeps Headlamp's Data section, with its in-place editor and Save.
    await page.goto(secretUrl('plain'));
    await page.getByRole('button', { name: 'Save' }).waitFor();
    expect(await page.getByRole('table', { name: 'Values' }).count()).toBe(0);

    await page.goto(secretUrl('db'));
    const table = page.getByRole('table', { name: 'Values' });
    const row = table.getByRole('row').filter({ hasText: 'password' });
    await row.waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    // Masked, and not in the page at all, until revealed.
    expect(await page.locator('body').textContent()).not.toContain('pw-first');
    await row.getByRole('button', { name: 'Reveal' }).click();
    await row.getByText('pw-first', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Expand value' }).click();
    await table.getByText('Detected: Text').waitFor();
    const values = page
      .locator('div')
      .filter({ has: page.getByRole('heading', { name: 'Values' }) })
      .filter({ has: table })
      .last();
    await screenshot(values, 'values');
    await row.getByRole('button', { name: 'Hide' }).click();
    expect(await page.locator('body').textContent()).not.toContain('pw-first');
  });
});
