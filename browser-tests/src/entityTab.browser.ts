import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  clipboardText,
  admin,
  launchBrowser,
  screenshot,
  signedInContext,
} from './support';

/** The values table row of one key. */
function valueRow(page: Page, key: string): Locator {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: key, exact: true }) });
}

/**
 * Fails when a Secret's name in the table wraps: squeezed columns once broke names one letter per
 * line. Each name link must be about one line high.
 */
async function expectNamesOnOneLine(page: Page): Promise<void> {
  const names = page.locator('table td a[href*="/krypton/secret/"]');
  const count = await names.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const name = names.nth(i);
    const box = await name.boundingBox();
    const lineHeight = await name.evaluate(el => {
      const style = getComputedStyle(el);
      const parsed = parseFloat(style.lineHeight);
      return Number.isNaN(parsed) ? 1.5 * parseFloat(style.fontSize) : parsed;
    });
    expect({
      name: await name.textContent(),
      oneLine: box!.height < 1.8 * lineHeight,
    }).toEqual({
      name: await name.textContent(),
      oneLine: true,
    });
  }
}

describe('the entity tab', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("lists the component's Secrets, and a linked one reveals, copies and previews its values", async () => {
    const page = await context.newPage();
    // A laptop's width: the table must still give every name its room.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/catalog/default/component/payments-api/krypton');
    const link = page.getByRole('link', {
      name: 'database-credentials',
      exact: true,
    });
    await link.waitFor();
    // A Secret whose rules leave the guest out is listed with the reason, and not as a link.
    await page
      .getByText("You are not allowed to do this by the Secret's access rules.")
      .waitFor();
    await expectNamesOnOneLine(page);
    await screenshot(page, 'entity-tab');

    // The secondary facts wait behind each row's details toggle.
    await page
      .getByRole('button', { name: 'Details of database-credentials' })
      .click();
    await page.getByText('Binary keys', { exact: true }).waitFor();
    await page.getByText('Pending deletion', { exact: true }).waitFor();
    await expectNamesOnOneLine(page);
    await screenshot(page, 'entity-tab-details');

    await link.click();
    await page.waitForURL(
      /\/krypton\/secret\/krypton-demo\/database-credentials/,
    );
    const password = valueRow(page, 'password');
    await password.waitFor();
    // Masked until revealed.
    await expect(password.textContent()).resolves.not.toContain(
      'demo-only-not-a-real-password',
    );
    await screenshot(page, 'detail-values-masked');

    await password.getByRole('button', { name: 'Reveal' }).click();
    await password.getByText('demo-only-not-a-real-password').waitFor();

    await password.getByRole('button', { name: 'Copy' }).click();
    await password.getByText('Copied').waitFor();
    await expect(clipboardText(page)).resolves.toBe(
      'demo-only-not-a-real-password',
    );

    const url = valueRow(page, 'url');
    await url.getByRole('button', { name: 'Expand value' }).click();
    await page.getByText('Preview as:').waitFor();
    await page
      .getByText('postgres://payments@db.krypton-demo.svc:5432/payments')
      .first()
      .waitFor();
    await screenshot(page, 'detail-values-preview');
    await page.close();
  });

  it('offers Roll back… only where a restore can succeed, and says why not', async () => {
    // The reproduction: the demo's payments-notes, made immutable.
    await admin().patchSecret(DEMO_NAMESPACE, 'payments-notes', {
      immutable: true,
    });
    const page = await context.newPage();
    await page.goto('/catalog/default/component/payments-worker/krypton');
    const frozen = page.getByRole('link', {
      name: 'Roll back payments-notes…',
    });
    await frozen.waitFor();
    await expect(frozen.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(frozen.getAttribute('href')).resolves.toBeNull();
    await frozen.hover();
    await page
      .getByRole('tooltip')
      .getByText(
        'The Secret is immutable: its data cannot be changed, so no version can be restored.',
      )
      .waitFor();
    await screenshot(page, 'entity-tab-rollback-disabled');
    // The other linked Secret still rolls back.
    await expect(
      page
        .getByRole('link', { name: 'Roll back payments-tls…' })
        .getAttribute('href'),
    ).resolves.toContain('rollback=1');
    await page.close();
  });
});
