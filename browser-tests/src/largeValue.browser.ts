import { Browser, BrowserContext } from 'playwright-core';
import {
  clipboardText,
  createManagedSecret,
  detailPath,
  launchBrowser,
  screenshot,
  signedInContext,
} from './support';

const SECRET = 'browser-large-value';
// 200,000 UTF-16 code units, with a marker at the end that a truncated copy would lose.
const VALUE = `${'0123456789'.repeat(19_999)}END-MARKER`;

describe('a value over the preview limit', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
    await createManagedSecret(SECRET, { 'big.txt': VALUE });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the fallback notice, while Copy gives the whole value', async () => {
    expect(VALUE).toHaveLength(200_000);
    const page = await context.newPage();
    // The value reads the page sends: the Secret's own route, not its summary or history.
    const valueReads: string[] = [];
    page.on('request', request => {
      const url = new URL(request.url());
      if (url.pathname.endsWith(`/secrets/${SECRET}`))
        valueReads.push(`${request.method()} ${url.search}`);
    });
    await page.goto(detailPath(SECRET));
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'big.txt' }) });
    await row.waitFor();
    // The size comes with the summary; the value is read only when asked for.
    await row.getByText('200,000 bytes').waitFor();
    expect(valueReads).toEqual([]);
    await row.getByRole('button', { name: 'Expand value' }).click();
    await page
      .getByText(
        'This value is larger than 131,072 characters, so it is shown as raw text.',
      )
      .waitFor();
    await screenshot(page, 'large-value-fallback');

    await row.getByRole('button', { name: 'Copy' }).click();
    await row.getByText('Copied').waitFor();
    await expect(clipboardText(page)).resolves.toBe(VALUE);
    // One read, of that key, for the Expand; Copy used the value the page held.
    expect(valueReads).toEqual(['GET ?keys=big.txt']);
    await page.close();
  });
});
