import {
  StoredObject,
  container,
  createPod,
  createReplicaSet,
  createWorkload,
  readWorkload,
  runningPod,
  setPodStatus,
  setWorkloadStatus,
} from '@krypton/kube-testenv';
import { Browser, BrowserContext } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  admin,
  createManagedSecret,
  detailPath,
  launchBrowser,
  onPage,
  screenshot,
  signedInContext,
  updateThroughKrypton,
} from './support';

const SECRET = 'rollout-credentials';
const APP = 'rollout-app';

const podSpec = () => ({
  containers: [
    container({
      env: [
        {
          name: 'PASSWORD',
          valueFrom: { secretKeyRef: { name: SECRET, key: 'password' } },
        },
      ],
    }),
  ],
});

/** A pod of the ReplicaSet, running since `started`, as a kubelet would report it. */
async function runPod(name: string, replicaSet: StoredObject, started: Date) {
  const spec = podSpec();
  await createPod(
    admin(),
    DEMO_NAMESPACE,
    name,
    { kind: 'ReplicaSet', object: replicaSet },
    spec,
  );
  await setPodStatus(
    admin(),
    DEMO_NAMESPACE,
    name,
    runningPod(['app'], started),
  );
}

describe('the versions that consumers hold', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a stale pod, restarts, and follows the rollout until every pod holds the new version', async () => {
    // No kubelet or controller runs on the local control plane: the test stands in for both.
    await createManagedSecret(SECRET, { password: 'one' });
    const deployment = await createWorkload(
      admin(),
      DEMO_NAMESPACE,
      'Deployment',
      APP,
      podSpec(),
    );
    const first = await createReplicaSet(
      admin(),
      DEMO_NAMESPACE,
      deployment,
      'first',
      podSpec(),
    );
    await runPod(`${APP}-first-1`, first, new Date(Date.now() + 1000));
    // Version 2 comes well after the pod started: a start within seconds of a change could have
    // read either version, and the view would say so.
    await new Promise(r => setTimeout(r, 5000));
    await updateThroughKrypton(SECRET, { password: 'two' });
    const changed = Date.now();

    await onPage(context, 'consumer-versions', async page => {
      await page.goto(`${detailPath(SECRET)}/consumers`);
      await page
        .getByText(
          '1 of 1 pods still holds version 1; the live Secret is version 2',
        )
        .first()
        .waitFor();
      await screenshot(page, 'consumer-versions-stale');

      await page.getByRole('button', { name: 'Restart consumers' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: /^Restart 1 workload/ }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Following the rollout…').first().waitFor();
      const restarted = await readWorkload(
        admin(),
        DEMO_NAMESPACE,
        'Deployment',
        APP,
      );
      expect(
        Date.parse(
          restarted.spec.template.metadata?.annotations?.[
            'krypton.io/restarted-at'
          ] ?? '',
        ),
      ).not.toBeNaN();

      // The Deployment controller's part: a new ReplicaSet whose pod runs, the old pod gone.
      const second = await createReplicaSet(
        admin(),
        DEMO_NAMESPACE,
        deployment,
        'second',
        podSpec(),
      );
      await runPod(
        `${APP}-second-1`,
        second,
        new Date(Math.max(Date.now(), changed + 5000)),
      );
      await admin().expect(200, {
        method: 'DELETE',
        path: `/api/v1/namespaces/${DEMO_NAMESPACE}/pods/${APP}-first-1`,
        query: { gracePeriodSeconds: '0' },
      });
      await setWorkloadStatus(admin(), DEMO_NAMESPACE, 'Deployment', APP, {
        observedGeneration: 2,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
      });

      await page
        .getByText('Every pod holds version 2')
        .first()
        .waitFor({ timeout: 30_000 });
      await screenshot(page, 'consumer-versions-current');
    });
  });
});
