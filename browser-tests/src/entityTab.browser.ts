import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  clipboardText,
  kubectl,
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
    await screenshot(page, 'entity-tab');

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
    await kubectl(
      '-n',
      DEMO_NAMESPACE,
      'patch',
      'secret',
      'payments-notes',
      '--type',
      'merge',
      '-p',
      '{"immutable":true}',
    );
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
