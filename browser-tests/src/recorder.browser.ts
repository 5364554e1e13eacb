import { LocalRecorder, startLocalRecorder } from '@krypton/recorder/local';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  admin,
  createManagedSecret,
  decodeValue,
  detailPath,
  launchBrowser,
  readSecret,
  screenshot,
  signedInContext,
  stack,
} from './support';

const SECRET = 'browser-recorded';
const DELETED = 'browser-deleted';
const WEBHOOK = 'krypton-recorder-browser';
const execFileAsync = promisify(execFile);

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** kubectl in the demo namespace, as the cluster's admin, outside Krypton. */
async function kubectl(...args: string[]) {
  const { kubectl: binary, adminKubeconfig } = stack();
  await execFileAsync(binary, [
    '--kubeconfig',
    adminKubeconfig,
    '-n',
    DEMO_NAMESPACE,
    ...args,
  ]);
}

/** A kubectl merge patch of one value. */
const kubectlPatch = (name: string, key: string, value: string) =>
  kubectl(
    'patch',
    'secret',
    name,
    '--type',
    'merge',
    '-p',
    JSON.stringify({ data: { [key]: b64(value) } }),
  );

describe('a change made with kubectl', () => {
  let recorder: LocalRecorder;
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    const { controlPlane, adminKubeconfig } = stack();
    // The recorder as `./krypton start` runs it, for the demo namespace while this file runs.
    recorder = await startLocalRecorder({ ...controlPlane, adminKubeconfig });
    await recorder.register({ name: WEBHOOK, namespace: DEMO_NAMESPACE });
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await recorder?.stop();
    await browser?.close();
  });

  async function openHistory(page: Page) {
    await page.goto(detailPath(SECRET));
    await page.getByRole('tab', { name: 'History' }).click();
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.waitFor();
    return versions;
  }

  it('appears in History as a version with who made it and with what, and restoring it works', async () => {
    await createManagedSecret(SECRET, { token: 'set-by-krypton' });
    await kubectlPatch(SECRET, 'token', 'set-by-kubectl');
    const live = await readSecret(SECRET);
    expect(decodeValue(live, 'token')).toBe('set-by-kubectl');
    expect(live.metadata.annotations?.['krypton.io/version']).toBe('2');

    const page = await context.newPage();
    const versions = await openHistory(page);
    const row = versions.getByRole('row').filter({
      has: page.getByRole('rowheader', { name: 'Version 1' }),
    });
    await row.getByText(`kubectl patch by ${stack().adminUser}`).waitFor();
    await screenshot(page, 'recorder-history');

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Restored: the Secret is now at version 3').waitFor();

    const restored = await readSecret(SECRET);
    expect(decodeValue(restored, 'token')).toBe('set-by-krypton');
    // Krypton's own restore saved the state it replaced; the recorder found it saved and kept
    // no second copy: version 2 is the guest's, once.
    const kept = (await admin().snapshots(DEMO_NAMESPACE)).filter(
      s => s.metadata.annotations?.['krypton.io/history-of'] === SECRET,
    );
    expect(
      kept
        .map(s => [
          s.metadata.annotations?.['krypton.io/version'],
          s.metadata.annotations?.['krypton.io/snapshot-by'],
        ])
        .sort(),
    ).toEqual([
      ['1', `kubernetes:${stack().adminUser}`],
      ['2', 'user:default/guest'],
    ]);
    await page.close();
  });

  it('keeps a Secret deleted with kubectl under Deleted Secrets, and Recreate brings a kept version back', async () => {
    await createManagedSecret(DELETED, { token: 'first-value' });
    await kubectlPatch(DELETED, 'token', 'last-value');
    const { uid } = (await readSecret(DELETED)).metadata;
    await kubectl('delete', 'secret', DELETED);

    const page = await context.newPage();
    await page.goto(`/krypton?namespace=${DEMO_NAMESPACE}`);
    const table = page.getByRole('table', { name: 'Deleted Secrets' });
    const row = table.getByRole('row').filter({
      has: page.getByRole('rowheader', { name: new RegExp(`^${DELETED}`) }),
    });
    await row.getByText(`deleted by ${stack().adminUser}`).waitFor();
    await row.getByText('Version 2').waitFor();
    await screenshot(page, 'deleted-secrets');

    await row.getByRole('button', { name: `Recreate ${DELETED}…` }).click();
    const dialog = page.getByRole('dialog', { name: `Recreate ${DELETED}` });
    await dialog.waitFor();
    await dialog.getByRole('radio', { name: /^Version 1/ }).check();
    await screenshot(page, 'deleted-secrets-recreate');
    await dialog.getByRole('button', { name: 'Recreate', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Recreated ${DELETED}.`).waitFor();

    const recreated = await readSecret(DELETED);
    expect(recreated.metadata.uid).not.toBe(uid);
    expect(decodeValue(recreated, 'token')).toBe('first-value');
    expect(recreated.metadata.annotations?.['krypton.io/version']).toBe('1');
    // The deleted lifetime stays listed, now under a name that a live Secret holds.
    await row
      .getByText(
        `A Secret named ${DELETED} exists now, so it cannot be recreated.`,
      )
      .waitFor();
    await page.close();
  });
});
