import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createManagedSecret,
  decodeValue,
  detailPath,
  launchBrowser,
  onPage,
  readSecret,
  screenshot,
  signedInContext,
  updateThroughKrypton,
} from './support';

// Linked from the payments-api component; no other browser test changes it.
const SECRET = 'payments-keystore';
const COMPARED = 'browser-history-compare';

const CONF_V1 = [
  'listen = 0.0.0.0:8080',
  'upstream = db.internal:5432',
  'token = first-compare-token',
  'timeout = 30s',
  '',
].join('\n');
const CONF_V2 = CONF_V1.replace(
  'first-compare-token',
  'second-compare-token',
).replace('db.internal:5432', 'db.internal:6432');
const CONF_LIVE = CONF_V2.replace('timeout = 30s', 'timeout = 45s');

async function restoreFromDialog(page: Page, version: number) {
  const dialog = page.getByRole('dialog', {
    name: `Restore version ${version}?`,
  });
  await dialog.waitFor();
  return dialog;
}

describe('history and restore', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('edits a value, rolls back from the entity tab, and undoes the restore from history', async () => {
    const before = await readSecret(SECRET);
    const binaryBefore = before.data?.['keystore.bin'];
    expect(decodeValue(before, 'alias')).toBe('payments');

    await onPage(context, 'history', async page => {
      // The form leaves a binary-containing Secret's values to Kubernetes tooling.
      await page.goto(detailPath(SECRET));
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await page
        .getByText(
          'To edit a binary-containing Secret, update metadata in Krypton or use Kubernetes tooling to change bytes.',
          { exact: false },
        )
        .waitFor();
      await expect(
        page
          .getByRole('textbox', { name: 'Value of alias' })
          .getAttribute('readonly'),
      ).resolves.not.toBeNull();
      await screenshot(page, 'edit-binary-read-only');
      await page.getByRole('button', { name: 'Cancel editing' }).click();

      // Edit through the API, which keeps the binary value: version 1 (alias=payments) is
      // archived.
      await updateThroughKrypton(SECRET, { alias: 'payments-renamed' });
      expect(decodeValue(await readSecret(SECRET), 'alias')).toBe(
        'payments-renamed',
      );

      // Roll back… from the catalog: the restore confirmation of version 1 opens with its diff,
      // and ?rollback=1 leaves the address, so a reload does not open it again.
      await page.goto('/catalog/default/component/payments-api/krypton');
      await page.getByRole('link', { name: `Roll back ${SECRET}…` }).click();
      const rollback = await restoreFromDialog(page, 1);
      await page.waitForURL(url => !url.search.includes('rollback'));
      // alias differs; the binary key compares by bytes and is unchanged.
      await rollback
        .getByText('0 added, 0 removed, 1 changed, 1 unchanged.')
        .waitFor();
      await screenshot(page, 'restore-confirmation');
      await rollback
        .getByRole('button', { name: 'Restore', exact: true })
        .click();
      await rollback.waitFor({ state: 'detached' });
      await page
        .getByText('Restored: the Secret is now at version 3')
        .waitFor();
      // Restart is enabled in the demo and the guest's team edits this Secret.
      await page.getByRole('button', { name: 'Restart consumers…' }).waitFor();

      const restored = await readSecret(SECRET);
      expect(decodeValue(restored, 'alias')).toBe('payments');
      expect(restored.data?.['keystore.bin']).toBe(binaryBefore);
      expect(restored.metadata.annotations?.['krypton.io/version']).toBe('3');

      // The history now holds version 2, the state the restore replaced: restore it to undo.
      const versions = page.getByRole('table', { name: 'Versions' });
      await versions.getByRole('rowheader', { name: 'Version 2' }).waitFor();
      await screenshot(page, 'history-tab');
      await page
        .getByRole('button', { name: 'View values of version 2' })
        .click();
      await page
        .getByRole('table', { name: 'Changes from version 2 to live' })
        .waitFor();
      await page
        .getByText('0 added, 0 removed, 1 changed, 1 unchanged.')
        .first()
        .waitFor();
      await screenshot(page, 'history-diff');
      await page.getByRole('button', { name: 'Restore version 2' }).click();
      const undo = await restoreFromDialog(page, 2);
      await undo.getByRole('button', { name: 'Restore', exact: true }).click();
      await undo.waitFor({ state: 'detached' });
      await page
        .getByText('Restored: the Secret is now at version 4')
        .waitFor();

      const undone = await readSecret(SECRET);
      expect(decodeValue(undone, 'alias')).toBe('payments-renamed');
      expect(undone.data?.['keystore.bin']).toBe(binaryBefore);
    });
  });

  it('compares any two versions, with a line diff masked until revealed', async () => {
    // Version 1 holds CONF_V1, version 2 CONF_V2, and live CONF_LIVE.
    await createManagedSecret(COMPARED, { 'app.conf': CONF_V1, name: 'a' });
    await updateThroughKrypton(COMPARED, { 'app.conf': CONF_V2, name: 'a' });
    await updateThroughKrypton(COMPARED, { 'app.conf': CONF_LIVE, name: 'b' });

    await onPage(context, 'history-compare', async page => {
      await page.goto(detailPath(COMPARED));
      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByRole('table', { name: 'Versions' }).waitFor();
      // The demo keeps the default 20 versions: two are used.
      await page
        .getByText(
          'Keeps 20 versions; 18 more fit before a change of values removes the oldest.',
        )
        .waitFor();

      const pickers = page.getByRole('group', { name: 'Versions to compare' });
      await pickers.getByLabel('From').selectOption({ label: 'Version 1' });
      await pickers.getByLabel('To').selectOption({ label: 'Version 2' });
      await pickers.getByRole('button', { name: 'Compare' }).click();
      const diff = page.getByRole('table', {
        name: 'Changes from version 1 to version 2',
      });
      await diff.waitFor();
      await diff.getByRole('rowheader', { name: 'app.conf' }).waitFor();

      // Masked: no line of either version is in the page before Reveal.
      const content = async () => page.evaluate(() => document.body.innerText);
      for (const text of [
        'first-compare-token',
        'second-compare-token',
        '6432',
      ]) {
        expect(await content()).not.toContain(text);
      }
      await diff
        .getByRole('button', {
          name: 'Reveal line changes of app.conf from version 1 to version 2',
        })
        .click();
      const lines = diff.getByRole('table', {
        name: 'Line changes of app.conf',
      });
      await lines.waitFor();
      await diff.getByText('2 lines removed, 2 lines added.').waitFor();
      // Each row's cells: line before, line after, marker, and the text with its spoken change.
      const compact = await lines.getByRole('row').evaluateAll(rows =>
        rows.slice(1).map(row =>
          Array.from((row as HTMLTableRowElement).cells)
            .map(cell => cell.textContent)
            .join('|'),
        ),
      );
      expect(compact).toEqual([
        '1|1| |listen = 0.0.0.0:8080',
        '2||−|Removed: upstream = db.internal:5432',
        '3||−|Removed: token = first-compare-token',
        '|2|+|Added: upstream = db.internal:6432',
        '|3|+|Added: token = second-compare-token',
        '4|4| |timeout = 30s',
      ]);
      await screenshot(page, 'history-line-diff');

      // Any side against live: the live values are the ones the page already read.
      await pickers.getByLabel('From').selectOption({ label: 'Version 1' });
      await pickers.getByLabel('To').selectOption({ label: 'Live' });
      await pickers.getByRole('button', { name: 'Compare' }).click();
      const toLive = page.getByRole('table', {
        name: 'Changes from version 1 to live',
      });
      await toLive.waitFor();
      expect(await content()).not.toContain('timeout = 45s');
      await toLive
        .getByRole('button', {
          name: 'Reveal line changes of app.conf from version 1 to live',
        })
        .click();
      await toLive.getByText('3 lines removed, 3 lines added.').waitFor();
      expect(await content()).toContain('timeout = 45s');
    });
  });

  it('shows permission denied, not an empty history, for a Secret whose rules leave the guest out', async () => {
    await onPage(context, 'history-denied', async page => {
      await page.goto(`${detailPath('platform-signing-key')}?tab=history`);
      await page.getByText("You may not see this Secret's history").waitFor();
      await expect(
        page.getByText('No versions yet', { exact: false }).count(),
      ).resolves.toBe(0);
      await screenshot(page, 'history-denied');
    });
  });
});
