import { Browser, BrowserContext } from 'playwright-core';
import {
  DEMO_NAMESPACE,
  admin,
  createManagedSecret,
  decodeValue,
  detailPath,
  launchBrowser,
  onPage,
  readSecret,
  screenshot,
  signedInContext,
} from './support';

/** A Secret that gains Helm's metadata while the guest's edit form is open. */
const ADOPTED_BY_HELM = 'owned-while-editing';

describe('Secrets that another tool owns', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    await createManagedSecret(ADOPTED_BY_HELM, { token: 'first' });
    browser = await launchBrowser();
    context = await signedInContext(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('says who owns a demo Secret, what an edit would come to and what to run instead, and offers no edit', () =>
    onPage(context, 'owned-banner', async page => {
      await page.goto(detailPath('payments-api-key'));
      const banner = page.getByRole('region', {
        name: 'Owned by External Secrets',
      });
      await banner.waitFor();
      const text = (await banner.textContent()) ?? '';
      expect(text).toContain(
        "An edit here is undone by External Secrets: at once when the ExternalSecret's creationPolicy is Merge; with creationPolicy: Orphan it is kept until the ExternalSecret's next refresh.",
      );
      expect(text).toContain('kubectl annotate externalsecret');
      expect(text).toContain('force-sync=$(date +%s) --overwrite');
      await page
        .getByText(
          'You cannot edit this Secret: External Secrets owns this Secret, and Krypton does not change a Secret that another tool owns.',
        )
        .waitFor();
      expect(
        await page.getByRole('button', { name: 'Edit', exact: true }).count(),
      ).toBe(0);
      expect(
        await page.getByRole('button', { name: 'Delete…' }).isDisabled(),
      ).toBe(true);
      await screenshot(page, 'owned-secret');

      await page.goto(detailPath('payments-chart-values'));
      await page.getByRole('region', { name: 'Owned by Helm' }).waitFor();
      await page
        .getByText(
          'You cannot edit this Secret: Helm owns this Secret, and Krypton does not change a Secret that another tool owns.',
        )
        .waitFor();
    }));

  it('refuses an edit of a Secret that became owned while the form was open, and changes nothing', () =>
    onPage(context, 'owned-refused-edit', async page => {
      await page.goto(detailPath(ADOPTED_BY_HELM));
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', {
        name: `Edit Secret ${ADOPTED_BY_HELM}`,
      });
      await form
        .getByRole('textbox', { name: 'Value of token' })
        .fill('second');
      // Helm takes the Secret over in the meantime: a metadata-only write outside Krypton.
      await admin().patchSecret(DEMO_NAMESPACE, ADOPTED_BY_HELM, {
        metadata: {
          labels: { 'app.kubernetes.io/managed-by': 'Helm' },
          annotations: {
            'meta.helm.sh/release-name': 'payments',
            'meta.helm.sh/release-namespace': DEMO_NAMESPACE,
          },
        },
      });
      await form.getByRole('button', { name: 'Save' }).click();
      await page
        .getByText(
          'This Secret is owned by Helm (Release payments), whose next upgrade writes its own data back. Krypton does not update a Secret that another tool owns on this deployment: change it at its source.',
        )
        .waitFor();
      await screenshot(page, 'owned-refused-edit');
      const live = await readSecret(ADOPTED_BY_HELM);
      expect(decodeValue(live, 'token')).toBe('first');
      expect(live.metadata.annotations?.['krypton.io/version']).toBe('1');
    }));
});
