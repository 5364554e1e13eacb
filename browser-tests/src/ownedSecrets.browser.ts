import {
  OWNER_KINDS,
  createOwner,
  installOwnerKinds,
  ownerPath,
} from '@krypton/kube-testenv';
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
/** A Secret that an ExternalSecret controls, and that ExternalSecret. */
const SYNCED = 'synced-by-external-secrets';
const SYNCED_SOURCE = 'synced-source';
const ES = OWNER_KINDS.ExternalSecret;

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

  it("asks External Secrets to sync from its store, as the guest, where the guest's RBAC allows it", async () => {
    // No operator runs in the demo: the CRD and an ExternalSecret controlling the Secret, as
    // External Secrets would leave them, and the guest's team may patch ExternalSecrets here.
    await installOwnerKinds(admin());
    const owner = await createOwner(admin(), DEMO_NAMESPACE, ES, SYNCED_SOURCE);
    await admin().createSecret(DEMO_NAMESPACE, {
      metadata: {
        name: SYNCED,
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: {
          'krypton.io/version': '1',
          'krypton.io/owners': 'group:default/team-a',
        },
        ownerReferences: [owner],
      },
      stringData: { 'api-key': 'from-the-store' },
    });
    await admin().grant(
      DEMO_NAMESPACE,
      'team-a-externalsecrets',
      { kind: 'Group', name: 'group:default/team-a' },
      [{ apiGroups: [ES.group], resources: [ES.plural], verbs: ['patch'] }],
    );
    // The authorizer learns of a new RoleBinding a moment after it is written; the page's offer
    // must not be asked before.
    await admin().untilAllowed(
      { user: 'user:default/guest', groups: ['group:default/team-a'] },
      {
        namespace: DEMO_NAMESPACE,
        verb: 'patch',
        group: ES.group,
        resource: ES.plural,
        name: SYNCED_SOURCE,
      },
    );
    await onPage(context, 'owner-sync', async page => {
      await page.goto(detailPath(SYNCED));
      const banner = page.getByRole('region', {
        name: 'Owned by External Secrets',
      });
      await banner.waitFor();
      const sync = banner.getByRole('button', {
        name: 'Sync from the store now',
      });
      await sync.click();
      const status = banner.getByRole('status').filter({
        hasText: 'force-sync=',
      });
      await status.waitFor();
      await screenshot(page, 'owner-sync');
      const es = await admin().expect<{
        metadata: { annotations?: Record<string, string> };
      }>(200, {
        method: 'GET',
        path: ownerPath(ES, DEMO_NAMESPACE, SYNCED_SOURCE),
      });
      const value = es.metadata.annotations?.['force-sync'];
      expect(value).toMatch(/^\d+$/);
      expect(await status.textContent()).toContain(`force-sync=${value}`);
    });
  });
});
