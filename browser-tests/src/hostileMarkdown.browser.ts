import { Browser, BrowserContext } from 'playwright-core';
import {
  createManagedSecret,
  detailPath,
  launchBrowser,
  screenshot,
  signedInContext,
  stack,
  watchPage,
} from './support';

const SECRET = 'browser-hostile-notes';

/**
 * Every probe URL points at the portal's own servers, which would answer: a request to any of
 * them would show up in the page's request log.
 */
function hostileMarkdown(appUrl: string, backendUrl: string): string {
  return [
    '# Runbook',
    '',
    '<script>alert("script ran")</script>',
    '',
    '<img src="x-onerror-probe" onerror="alert(\'onerror ran\')">',
    '',
    '[click me](javascript:alert(document.domain))',
    '',
    `![local image](${backendUrl}/api/krypton/health?probe=markdown-image)`,
    '',
    `<iframe src="${appUrl}/iframe-probe"></iframe>`,
    '',
    `<img src="${appUrl}/html-image-probe">`,
    '',
    'A [safe link](https://example.com/runbook) stays a link.',
  ].join('\n');
}

describe('a hostile Markdown value', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
    const { appUrl, backendUrl } = stack();
    await createManagedSecret(SECRET, {
      'notes.md': hostileMarkdown(appUrl, backendUrl),
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders as Markdown and executes nothing and loads nothing', async () => {
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto(detailPath(SECRET));
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'notes.md' }) });
    await row.waitFor();
    const before = watch.requests.length;

    await row.getByRole('button', { name: 'Expand value' }).click();
    await page.getByText('Detected: Markdown').waitFor();
    const preview = page.getByRole('heading', { name: 'Runbook' });
    await preview.waitFor();
    // The image is described, not loaded.
    await page.getByText('local image', { exact: false }).first().waitFor();
    // Give anything that would load or run a moment to do so.
    await page.waitForTimeout(1500);
    await screenshot(page, 'hostile-markdown');

    // The javascript: link keeps its text and loses its target.
    const clickMe = page.getByText('click me', { exact: true });
    await clickMe.click();
    await expect(clickMe.evaluate(el => el.closest('a'))).resolves.toBeNull();
    const safe = page.getByRole('link', { name: 'safe link' });
    await expect(safe.getAttribute('target')).resolves.toBe('_blank');
    await expect(safe.getAttribute('rel')).resolves.toBe('noopener noreferrer');

    const loaded = watch
      .since(before)
      .filter(u => /probe/.test(u) || /^javascript:/i.test(u));
    expect(loaded).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    await expect(
      page
        .locator('script:not([src])')
        .evaluateAll(
          scripts =>
            scripts.filter(s => s.textContent?.includes('script ran')).length,
        ),
    ).resolves.toBe(0);
    await page.close();
  });
});
