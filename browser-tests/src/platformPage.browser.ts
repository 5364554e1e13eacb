import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  decodeValue,
  admin,
  launchBrowser,
  readSecret,
  screenshot,
  signedInContext,
} from './support';

const CREATED = 'browser-created';
const ADOPTED = 'browser-adopted';

/**
 * Picks the demo namespace from the namespace picker: the guest's team may list namespaces
 * (examples/demo-cluster.yaml), so the page offers them, and a picked one is listed at once.
 */
async function openNamespace(
  context: BrowserContext,
  onList?: (page: Page) => Promise<void>,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/krypton');
  const picker = page.getByRole('form', { name: 'Choose a namespace' });
  await picker.getByText('Pick a namespace, or type its name').waitFor();
  await picker.getByRole('textbox', { name: 'Namespace' }).click();
  const list = page.getByRole('listbox');
  await list
    .getByRole('option', { name: DEMO_NAMESPACE, exact: true })
    .waitFor();
  await onList?.(page);
  await list.getByRole('option', { name: DEMO_NAMESPACE, exact: true }).click();
  await page.getByRole('link', { name: 'database-credentials' }).waitFor();
  expect(new URL(page.url()).searchParams.get('namespace')).toBe(
    DEMO_NAMESPACE,
  );
  return page;
}

describe('the platform page', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
    // An unmanaged Secret, as kubectl or another tool would have made it.
    await admin().apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: ADOPTED, namespace: DEMO_NAMESPACE },
      type: 'Opaque',
      stringData: { token: 'made-elsewhere' },
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists a namespace and creates a Secret with the edit form', async () => {
    const page = await openNamespace(context, async listing => {
      // The namespaces that the guest's own identity may list, sorted, names only.
      const names = await listing
        .getByRole('listbox')
        .getByRole('option')
        .allTextContents();
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(
        expect.arrayContaining([DEMO_NAMESPACE, 'default']),
      );
      await screenshot(listing, 'platform-namespace-picker');
    });
    await screenshot(page, 'platform-namespace');
    await page.getByRole('button', { name: 'Create Secret' }).click();
    const form = page.getByRole('form', { name: 'Create Secret' });
    await form.getByLabel('Name', { exact: false }).first().fill(CREATED);
    await form.getByLabel('Description').fill('Made by the browser tests.');
    await form.getByRole('textbox', { name: 'Key 1' }).fill('api-key');
    await form
      .getByRole('textbox', { name: 'Value of api-key' })
      .fill('s3cr3t');
    await screenshot(page, 'platform-create');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: `Open ${CREATED}` }).waitFor();

    const created = await readSecret(CREATED);
    expect(decodeValue(created, 'api-key')).toBe('s3cr3t');
    expect(created.metadata.annotations?.['krypton.io/description']).toBe(
      'Made by the browser tests.',
    );
    await page.getByRole('link', { name: CREATED, exact: true }).waitFor();
  });

  it('adopts an unmanaged Secret with a description and access rules', async () => {
    const page = await openNamespace(context);
    await page.getByRole('button', { name: 'Adopt a Secret' }).click();
    const form = page.getByRole('form', { name: 'Adopt a Secret' });
    await form.getByLabel('Secret to adopt').selectOption(ADOPTED);
    await form.getByLabel('Description').fill('Adopted by the browser tests.');
    // The access rules are chosen from the catalog, as in the create and edit forms.
    const pick = async (field: string, search: string, ref: string) => {
      await form.getByLabel(field).fill(search);
      await page.getByRole('option').filter({ hasText: ref }).click();
    };
    await pick('Owners', 'team-a', 'group:default/team-a');
    await pick('Viewers', 'plat', 'group:default/platform');
    await form.getByRole('button', { name: 'platform', exact: true }).waitFor();
    await screenshot(page, 'platform-adopt');
    await form.getByRole('button', { name: 'Adopt', exact: true }).click();
    await page.getByRole('link', { name: `Open ${ADOPTED}` }).waitFor();

    const adopted = await readSecret(ADOPTED);
    expect(adopted.metadata.annotations).toMatchObject({
      'krypton.io/description': 'Adopted by the browser tests.',
      // The adopter is an owner from the start, as on create.
      'krypton.io/owners': 'user:default/guest,group:default/team-a',
      'krypton.io/viewers': 'group:default/platform',
    });
    expect(adopted.metadata.labels?.['krypton.io/managed-by']).toBe('krypton');
    expect(decodeValue(adopted, 'token')).toBe('made-elsewhere');
  });

  it('runs a storage rewrite of the demo namespace, follows it to the verdict, and reopens it after a reload', async () => {
    const page = await context.newPage();
    // The operators' tools have a page of their own, linked from the platform page for the guest,
    // who holds krypton.storage.rewrite in the demo.
    await page.goto('/krypton');
    await page
      .getByRole('link', { name: 'Storage rewrite (operators)' })
      .click();
    await page.waitForURL(/\/krypton\/storage-rewrite$/);
    await page.getByLabel('Namespace', { exact: true }).fill(DEMO_NAMESPACE);
    await page.getByRole('button', { name: 'Rewrite storage' }).click();
    // The start answers at once with the run still running: its progress shows until it ends.
    await page
      .getByRole('progressbar', { name: 'Progress of the storage rewrite' })
      .waitFor();
    const verdict = page.getByTestId('krypton-old-key-verdict');
    // No encryption key changed here, so every object is current at once and the key may go.
    await verdict.getByText('Old key: ready to retire').waitFor();
    const shown = page.getByRole('row').filter({ hasText: 'shown above' });
    await shown.getByText('succeeded', { exact: true }).waitFor();
    await shown.getByText('user:default/guest').waitFor();
    expect(await shown.textContent()).toContain(DEMO_NAMESPACE);
    await screenshot(page, 'platform-storage-rewrite');

    // The run is kept in the plugin's database: after a reload it is listed, and opens again.
    await page.reload();
    const row = page
      .getByRole('row')
      .filter({ hasText: DEMO_NAMESPACE })
      .filter({ hasText: 'user:default/guest' })
      .first();
    await row.getByRole('button', { name: /^Show the run of / }).click();
    await verdict.getByText('Old key: ready to retire').waitFor();
    // The API server answers each write with the whole Secret: none of its values reach the page.
    expect(await page.content()).not.toContain('s3cr3t');
  });
});
