import { Browser, BrowserContext } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  createManagedSecret,
  detailPath,
  admin,
  launchBrowser,
  onPage,
  readSecret,
  screenshot,
  signedInContext,
} from './support';

const FROM_FILE = 'browser-value-from-file';
const ACCESS = 'browser-access-form';

// A text value with CRLF line ends and a multi-byte character, and a binary value that is not
// UTF-8: neither may change by a single byte when only the access rules are saved.
const FILE_TEXT = 'line one\r\nline two – ünïcode\n';
const BINARY = Buffer.from([0x00, 0xff, 0x80, 0xc3, 0x28]);

describe('editing: values from files, the access picker, the access form and leaving a draft', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
    await createManagedSecret(FROM_FILE, { note: 'old note' });
    await admin().apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: ACCESS,
        namespace: DEMO_NAMESPACE,
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: {
          'krypton.io/version': '1',
          'krypton.io/owners': 'group:default/team-a',
        },
      },
      type: 'Opaque',
      data: {
        'notes.txt': Buffer.from(FILE_TEXT).toString('base64'),
        'blob.bin': BINARY.toString('base64'),
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('fills a text value from a file, byte for byte', () =>
    onPage(context, 'editing-file', async page => {
      await page.goto(detailPath(FROM_FILE));
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: `Edit Secret ${FROM_FILE}` });
      // The chooser's own input, behind the button of the same name.
      const chooser = form.locator(
        'input[type="file"][aria-label="Load value of note from a file"]',
      );
      await chooser.setInputFiles({
        name: 'note.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(FILE_TEXT),
      });
      await form.getByText('Multi-line value: show it to edit.').waitFor();
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();

      const saved = await readSecret(FROM_FILE);
      expect(saved.data?.note).toBe(Buffer.from(FILE_TEXT).toString('base64'));
      expect(saved.metadata.annotations?.['krypton.io/version']).toBe('2');
    }));

  it('picks a catalog group in the access form, and saves without touching the values', () =>
    onPage(context, 'editing-access', async page => {
      const before = await readSecret(ACCESS);
      await page.goto(detailPath(ACCESS));
      await page.getByRole('tab', { name: 'Access' }).click();
      await page
        .getByRole('button', { name: 'Edit access and description' })
        .click();
      const form = page.getByRole('form', {
        name: `Edit access and description of ${ACCESS}`,
      });
      // The access form is not the values form: no values, keys or paste box.
      expect(await form.getByLabel(/^Value of/).count()).toBe(0);
      expect(await form.getByLabel('Paste KEY=value lines').count()).toBe(0);

      // The existing owner shows by its catalog name; the picker searches the catalog.
      await form.getByRole('button', { name: 'team-a', exact: true }).waitFor();
      await form.getByLabel('Viewers').fill('plat');
      await page
        .getByRole('option')
        .filter({ hasText: 'group:default/platform' })
        .click();
      await form
        .getByRole('button', { name: 'platform', exact: true })
        .waitFor();
      await form
        .getByLabel('Description')
        .fill('Shared with the platform team.');
      await screenshot(page, 'edit-access-picker');
      await form.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('button', { name: 'Edit access and description' })
        .waitFor();

      const after = await readSecret(ACCESS);
      expect(after.metadata.annotations).toMatchObject({
        'krypton.io/viewers': 'group:default/platform',
        'krypton.io/description': 'Shared with the platform team.',
        // A metadata-only write adds no version.
        'krypton.io/version': '1',
      });
      expect(after.metadata.resourceVersion).not.toBe(
        before.metadata.resourceVersion,
      );
      expect(after.data).toEqual(before.data);
      expect(Buffer.from(after.data!['blob.bin'], 'base64')).toEqual(BINARY);
    }));

  it('asks before a link to another page throws a changed draft away', () =>
    onPage(context, 'editing-leave', async page => {
      await page.goto(detailPath(FROM_FILE));
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const description = page
        .getByRole('form', { name: `Edit Secret ${FROM_FILE}` })
        .getByLabel('Description');
      await description.fill('A draft to keep');
      // Another tab of the same Secret is no leaving: the draft stays mounted.
      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByRole('tab', { name: 'Values' }).click();

      // The sidebar's link to the catalog leaves the Secret's page.
      const catalog = page.locator('a[href="/catalog"]').first();
      const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
      await catalog.click();
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'hidden' });
      expect(new URL(page.url()).pathname).toBe(
        `${detailPath(FROM_FILE)}/values`,
      );
      expect(await description.inputValue()).toBe('A draft to keep');

      await catalog.click();
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await page.waitForURL(url => url.pathname === '/catalog');
      expect(
        (await readSecret(FROM_FILE)).metadata.annotations,
      ).not.toHaveProperty('krypton.io/description');
    }));
});
