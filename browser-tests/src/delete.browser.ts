import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  createManagedSecret,
  detailPath,
  kubectl,
  launchBrowser,
  readSecret,
  screenshot,
  signedInContext,
  snapshotNames,
  updateThroughKrypton,
} from './support';

const KEPT = 'browser-delete-keep';
const HELD = 'browser-delete-held';
const FINALIZER = 'krypton.io/browser-test-hold';

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
  const out = await kubectl(
    'get',
    'secret',
    name,
    '-n',
    DEMO_NAMESPACE,
    '--ignore-not-found',
    '-o',
    'name',
  );
  return out.trim() !== '';
}

describe('deleting a Secret', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    // Let Kubernetes finish the held delete.
    await kubectl(
      'patch',
      'secret',
      HELD,
      '-n',
      DEMO_NAMESPACE,
      '--type',
      'merge',
      '-p',
      '{"metadata":{"finalizers":null}}',
    ).catch(() => undefined);
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

  it('held by a finalizer: a 202 keeps the user on the Secret with a pending status', async () => {
    await createManagedSecret(HELD, { token: 'held' });
    await kubectl(
      'patch',
      'secret',
      HELD,
      '-n',
      DEMO_NAMESPACE,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ metadata: { finalizers: [FINALIZER] } }),
    );

    const page = await context.newPage();
    await page.goto(detailPath(HELD));
    const dialog = await confirmDelete(page, HELD, { keepHistory: false });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await page
      .getByText(`Deletion of ${DEMO_NAMESPACE}/${HELD} is pending`)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(detailPath(HELD));
    // The refetched Secret shows Kubernetes' deletion timestamp.
    const held = await readSecret(HELD);
    expect(held.metadata.finalizers).toEqual([FINALIZER]);
    await page.getByRole('button', { name: 'Delete…' }).waitFor();
    await expect(
      page.getByRole('button', { name: 'Delete…' }).isDisabled(),
    ).resolves.toBe(true);
    await screenshot(page, 'delete-pending');
    await page.close();
  });
});
