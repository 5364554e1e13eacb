import { WorkloadKind, readWorkload } from '@krypton/kube-testenv';
import { Browser, BrowserContext } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  admin,
  launchBrowser,
  onPage,
  screenshot,
  signedInContext,
} from './support';

const RESTARTED_AT = 'krypton.io/restarted-at';

async function restartedAt(kind: WorkloadKind, name: string): Promise<string> {
  const workload = await readWorkload(admin(), DEMO_NAMESPACE, kind, name);
  return workload.spec.template.metadata?.annotations?.[RESTARTED_AT] ?? '';
}

describe('restarting consumers', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("restarts the demo workloads from an entity's Secret, with results grouped per entity", async () => {
    await onPage(context, 'restart', async page => {
      // The entity overview's card links straight to a Secret's Consumers tab.
      await page.goto('/catalog/default/component/payments-api');
      const card = page.getByRole('table', { name: 'Linked Secrets' });
      const consumersLink = card.getByRole('link', {
        name: 'Consumers of database-credentials',
      });
      await consumersLink.waitFor();
      await screenshot(page, 'entity-overview-card');
      await consumersLink.click();
      await page.waitForURL(
        /\/krypton\/secret\/krypton-demo\/database-credentials\/consumers\?/,
      );
      await expect(
        page
          .getByRole('tab', { name: 'Consumers' })
          .getAttribute('aria-selected'),
      ).resolves.toBe('true');

      // The entity the user came from comes first; a workload no entity claims comes last.
      const groups = page.getByRole('heading', { level: 3 });
      await page.getByText('reports-export', { exact: true }).first().waitFor();
      const titles = await groups.allTextContents();
      const order = [
        'payments-api',
        'payments-agent',
        'Not in the catalog',
      ].map(t => titles.findIndex(title => title.includes(t)));
      expect(order.every(i => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      await screenshot(page, 'consumers');

      await page.getByRole('button', { name: 'Restart consumers' }).click();
      const dialog = page.getByRole('dialog', {
        name: 'Restart the consumers of database-credentials?',
      });
      await dialog.waitFor();
      for (const name of ['payments-api', 'payments-agent', 'reports-export']) {
        await dialog.getByText(name, { exact: false }).first().waitFor();
      }
      await screenshot(page, 'restart-confirmation');
      await dialog.getByRole('button', { name: 'Restart 3 workloads' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page
        .getByText('Rollout requested for 3 of 3 matched workloads.')
        .first()
        .waitFor();
      await page
        .getByText(
          'Only acknowledged pod-template patches are reported as requested.',
          { exact: false },
        )
        .first()
        .waitFor();
      // The result is grouped like the dry run: 3 groups in the dry run, 3 in the result, and
      // 3 in the last result read back from the backend, which arrives after the result.
      await page.getByText('Last restart through Krypton').waitFor();
      const notInCatalog = page.getByText('Not in the catalog', {
        exact: true,
      });
      await notInCatalog.nth(2).waitFor();
      await expect(notInCatalog.count()).resolves.toBe(3);
      // Who asked links to their catalog entity; when is relative, with the exact time on hover.
      const requested = page.getByText(/^Requested by /);
      await requested.getByRole('link').first().waitFor();
      await requested.locator('time[title]').waitFor();
      await screenshot(page, 'restart-result');

      for (const [kind, name] of [
        ['Deployment', 'payments-api'],
        ['DaemonSet', 'payments-agent'],
        ['Deployment', 'reports-export'],
      ] as const) {
        await expect(restartedAt(kind, name)).resolves.toMatch(/^\d{4}-/);
      }
      // payments-worker does not consume database-credentials.
      await expect(restartedAt('StatefulSet', 'payments-worker')).resolves.toBe(
        '',
      );
    });
  });
});
