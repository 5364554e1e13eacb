import { Browser, BrowserContext, Page } from 'playwright-core';
import {
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
