import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  detailPath,
  kubectlApply,
  launchBrowser,
  onPage,
  screenshot,
  signedInContext,
} from './support';

const ACCOUNT = 'browser-robot';
const TOKEN = 'browser-robot-token';
/** In the token's data, so also in kubectl's last-applied copy: never on the page. */
const CANARY = 'browser-sa-canary-51c0';
const REASON =
  'Service-account token Secrets cannot be created, edited or restored through Krypton. Use the Kubernetes TokenRequest API or the controller that manages them.';

/** The "What you may do" row of one action: whether it is allowed, and why not. */
async function mayDo(page: Page, action: string): Promise<string> {
  const table = page.getByRole('table', { name: 'What you may do' });
  const row = table.getByRole('row').filter({
    has: page.getByRole('rowheader', { name: action, exact: true }),
  });
  return (await row.textContent()) ?? '';
}

describe('a service-account token', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    await kubectlApply({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: ACCOUNT, namespace: DEMO_NAMESPACE },
    });
    // Served like any managed Secret, and owned by the guest's team: only its type says no.
    await kubectlApply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: TOKEN,
        namespace: DEMO_NAMESPACE,
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: {
          'kubernetes.io/service-account.name': ACCOUNT,
          'krypton.io/owners': 'group:default/team-a',
        },
      },
      type: 'kubernetes.io/service-account-token',
      stringData: { token: CANARY },
    });
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('offers neither Edit nor "Edit access and description", and says why', async () => {
    await onPage(context, 'service-account-token', async page => {
      await page.goto(detailPath(TOKEN));
      // The values are never revealed: the Values tab lists the keys and says why, and asks for
      // no value.
      await page
        .getByText(
          "You may see this Secret's metadata, but not its values. The values of service-account token Secrets are never revealed through Krypton.",
        )
        .waitFor();
      await page.getByRole('table', { name: 'Keys' }).waitFor();
      await expect(
        page.getByRole('button', { name: 'Edit', exact: true }).count(),
      ).resolves.toBe(0);

      await page.getByRole('tab', { name: 'Access' }).click();
      await page
        .getByText(`You cannot change the rules or the description: ${REASON}`)
        .waitFor();
      await expect(
        page
          .getByRole('button', { name: 'Edit access and description' })
          .count(),
      ).resolves.toBe(0);
      // The guest owns the Secret, so only the type stands in the way.
      for (const action of [
        'Update values',
        'Change access rules and description',
        'Restore a version',
      ]) {
        const row = await mayDo(page, action);
        expect(row).toContain(REASON);
        expect(row).not.toContain('Yes');
      }
      await expect(mayDo(page, 'See metadata')).resolves.toContain('Yes');
      await screenshot(page, 'service-account-token-access');

      // Its facts show kubectl's annotations but never the last-applied copy, which holds data.
      await expect(page.content()).resolves.not.toContain(CANARY);
      await expect(page.content()).resolves.not.toContain(
        'last-applied-configuration',
      );
      await expect(
        page.getByText('kubernetes.io/service-account.name').count(),
      ).resolves.toBeGreaterThan(0);
    });
  });
});
