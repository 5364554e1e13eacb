import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  createManagedSecret,
  detailPath,
  admin,
  launchBrowser,
  readSecret,
  screenshot,
  signedInContext,
  snapshotNames,
  updateThroughKrypton,
} from './support';

const KEPT = 'browser-delete-keep';
const HELD = 'browser-delete-held';
const PARTIAL = 'browser-delete-partial';
const FINALIZER = 'krypton.io/browser-test-hold';

/** The name of one history snapshot of a live Secret, found by its annotations. */
async function snapshotOf(live: string, version: number): Promise<string> {
  const snapshots = await admin().snapshots(DEMO_NAMESPACE);
  const found = snapshots.find(
    item =>
      item.metadata.annotations?.['krypton.io/history-of'] === live &&
      item.metadata.annotations?.['krypton.io/version'] === String(version),
  );
  if (!found) throw new Error(`no snapshot of ${live} version ${version}`);
  return found.metadata.name;
}

async function setFinalizers(name: string, finalizers: string[] | null) {
  await admin().patchSecret(DEMO_NAMESPACE, name, {
    metadata: { finalizers },
  });
}

/** Opens a Secret's History tab and waits for its list. */
async function openHistory(page: Page, name: string) {
  await page.goto(detailPath(name));
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await versions.waitFor();
  return versions;
}

async function confirmDelete(
  page: Page,
  name: string,
  options: { keepHistory: boolean },
) {
  await page.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete Secret ${name}?` });
  await dialog.waitFor();
  if (options.keepHistory) {
    await dialog.getByRole('checkbox', { name: 'Keep history' }).check();
  }
  await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
  return dialog;
}

async function exists(name: string): Promise<boolean> {
  const res = await admin().getSecret(DEMO_NAMESPACE, name);
  if (res.status !== 200 && res.status !== 404) {
    throw new Error(`get ${name} answered ${res.status}`);
  }
  return res.status === 200;
}

describe('deleting a Secret', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  /** Finalizers that hold objects for a test, removed at the end so that Kubernetes lets them go. */
  const held: string[] = [];
  afterAll(async () => {
    for (const name of held) {
      await setFinalizers(name, null).catch(() => undefined);
    }
    await browser?.close();
  });

  it('with keep-history: the list says the history was kept, and its snapshots remain', async () => {
    const before = new Set(await snapshotNames());
    await createManagedSecret(KEPT, { token: 'one' });
    await updateThroughKrypton(KEPT, { token: 'two' });
    const ours = (await snapshotNames()).filter(n => !before.has(n));
    expect(ours).toHaveLength(1);

    const page = await context.newPage();
    await page.goto(detailPath(KEPT));
    const dialog = await confirmDelete(page, KEPT, { keepHistory: true });
    await screenshot(page, 'delete-confirmation');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();

    // A 200 leaves the detail view for the namespace's list, which says what became of the history.
    await page.waitForURL(url => url.pathname === '/krypton');
    await page.getByText(`Deleted ${DEMO_NAMESPACE}/${KEPT}`).waitFor();
    await page.getByText('Its history was kept', { exact: false }).waitFor();
    await screenshot(page, 'delete-done');

    await expect(exists(KEPT)).resolves.toBe(false);
    await expect(snapshotNames()).resolves.toEqual(
      expect.arrayContaining(ours),
    );
    await page.close();
  });

  it('held by a finalizer: a 202 keeps the user on the Secret with a pending status, and refetches its history', async () => {
    await createManagedSecret(HELD, { token: 'held' });
    // Version 1 is archived, so the History tab lists a restore choice that cleanup removes.
    await updateThroughKrypton(HELD, { token: 'held-two' });
    await setFinalizers(HELD, [FINALIZER]);
    held.push(HELD);

    const page = await context.newPage();
    const versions = await openHistory(page, HELD);
    await versions.getByRole('rowheader', { name: 'Version 1' }).waitFor();
    const dialog = await confirmDelete(page, HELD, { keepHistory: false });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await page
      .getByText(`Deletion of ${DEMO_NAMESPACE}/${HELD} is pending`)
      .waitFor();
    // Still on the Secret (on its History tab).
    expect(new URL(page.url()).pathname.startsWith(detailPath(HELD))).toBe(
      true,
    );
    // The refetched Secret shows Kubernetes' deletion timestamp.
    const live = await readSecret(HELD);
    expect(live.metadata.finalizers).toEqual([FINALIZER]);
    // The refetch that disables Delete… may land after the pending message: wait for it.
    await page
      .getByRole('button', { name: 'Delete…', disabled: true })
      .waitFor();
    // The cleaned history is fetched again: its version is no longer offered.
    await page.getByText('No versions yet', { exact: false }).waitFor();
    await expect(
      page.getByRole('button', { name: 'Restore version 1' }).count(),
    ).resolves.toBe(0);
    await screenshot(page, 'delete-pending');
    await page.close();
  });

  it('after a partial cleanup, Reload latest refetches the history so removed versions are no longer offered', async () => {
    await createManagedSecret(PARTIAL, { token: 'one' });
    await updateThroughKrypton(PARTIAL, { token: 'two' });
    await updateThroughKrypton(PARTIAL, { token: 'three' });
    // Cleanup goes oldest first: version 1 stays pending behind its finalizer, version 2 goes,
    // and the delete stops with a 503 before the live Secret.
    const oldest = await snapshotOf(PARTIAL, 1);
    await setFinalizers(oldest, [FINALIZER]);
    held.push(oldest);

    const page = await context.newPage();
    const versions = await openHistory(page, PARTIAL);
    await versions.getByRole('rowheader', { name: 'Version 2' }).waitFor();
    const dialog = await confirmDelete(page, PARTIAL, { keepHistory: false });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog
      .getByText('History cleanup did not finish', { exact: false })
      .waitFor();
    await expect(exists(PARTIAL)).resolves.toBe(true);

    await dialog.getByRole('button', { name: 'Reload latest' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Version 2 is gone from the cluster, so it is gone from the restore choices too.
    await versions.getByRole('rowheader', { name: 'Version 1' }).waitFor();
    await expect(
      page.getByRole('button', { name: 'Restore version 2' }).count(),
    ).resolves.toBe(0);
    await page.close();
  });
});
