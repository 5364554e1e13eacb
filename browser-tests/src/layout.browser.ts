import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { layoutProblems } from './layoutCheck';
import { repoRoot } from './portal/stack';
import {
  DEMO_NAMESPACE,
  createManagedSecret,
  deleteThroughKrypton,
  detailPath,
  launchBrowser,
  onPage,
  restartThroughKrypton,
  screenshot,
  signedInContext,
  stack,
  updateThroughKrypton,
} from './support';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A laptop's window, and a narrow one (a split screen, a tablet). */
const WIDTHS = [1280, 800] as const;

/**
 * With KRYPTON_DOCS_SCREENSHOTS=1 the captures also replace the user guide's (docs/images/views);
 * otherwise they go to the artifacts folder only, so that a test run never changes the tree.
 */
const DOCS_DIR = process.env.KRYPTON_DOCS_SCREENSHOTS
  ? join(repoRoot, 'docs/images/views')
  : undefined;

interface View {
  name: string;
  path: string;
  /** What shows once the view has loaded what it shows first. */
  ready: (page: Page) => Locator;
  /** A step after loading, such as opening a form. */
  then?: (page: Page) => Promise<void>;
}

const SECRET = 'database-credentials';
/** A Secret of this file with two kept versions, so that History shows a table. */
const WITH_HISTORY = 'layout-with-history';
/** A Secret of this file whose changes need approval, with one change request waiting. */
const COVERED = 'layout-covered';
/**
 * A Secret of this file deleted with its history kept and then created again: Deleted Secrets
 * shows its row, saying that the name is taken, whichever other test files ran before.
 */
const TAKEN = 'layout-deleted-then-taken';
const ENTITY = '/catalog/default/component/payments-api';

const VIEWS: View[] = [
  {
    name: 'platform-namespaces',
    path: '/krypton',
    ready: page => page.getByRole('link', { name: DEMO_NAMESPACE }),
  },
  {
    name: 'platform-secrets',
    path: `/krypton?namespace=${DEMO_NAMESPACE}`,
    ready: page =>
      page
        .getByRole('table', { name: 'Deleted Secrets' })
        .getByText(new RegExp(`^A Secret named ${TAKEN} exists now`)),
  },
  {
    name: 'secret-values',
    path: detailPath(SECRET),
    ready: page => page.getByRole('rowheader', { name: 'password' }),
  },
  {
    name: 'secret-edit',
    path: detailPath(SECRET),
    ready: page => page.getByRole('rowheader', { name: 'password' }),
    then: async page => {
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByRole('button', { name: 'Save' }).first().waitFor();
    },
  },
  {
    name: 'secret-access',
    path: `${detailPath(SECRET)}/access`,
    ready: page => page.getByText('See metadata'),
  },
  {
    name: 'secret-history',
    path: `${detailPath(WITH_HISTORY)}/history`,
    ready: page =>
      page
        .getByRole('table', { name: 'Versions' })
        .getByRole('rowheader', { name: 'Version 2' }),
  },
  {
    name: 'secret-consumers',
    path: `${detailPath(SECRET)}/consumers`,
    ready: page => page.getByText('Last restart through Krypton'),
  },
  {
    name: 'secret-changes',
    path: `${detailPath(COVERED)}/changes`,
    ready: page =>
      page
        .getByRole('table', { name: `Change requests of ${COVERED}` })
        .getByText('Pending'),
  },
  {
    name: 'storage-rewrite',
    path: '/krypton/storage-rewrite',
    ready: page => page.getByText('Last run per namespace'),
  },
  {
    name: 'entity-overview',
    path: ENTITY,
    ready: page => page.getByRole('link', { name: SECRET }),
  },
  {
    name: 'entity-secrets',
    path: `${ENTITY}/krypton`,
    ready: page => page.getByRole('link', { name: SECRET }),
  },
];

/** Waits until nothing on the page is still loading. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('progressbar').first().waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle');
}

/**
 * Every view of the portal at a laptop's width and a narrow one: nothing may spill out of its
 * box, break a word or overlap other text (see layoutProblems). Each capture is kept for the user
 * guide.
 */
describe('the layout of every view', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
    await createManagedSecret(WITH_HISTORY, {
      username: 'payments',
      password: 'first',
    });
    await updateThroughKrypton(WITH_HISTORY, { password: b64('second') });
    await updateThroughKrypton(WITH_HISTORY, { password: b64('third') });
    await createManagedSecret(
      COVERED,
      { password: 'first' },
      { 'krypton.io/required-approvals': '1' },
    );
    // Answered 202: the update waits as a change request.
    await updateThroughKrypton(COVERED, { password: 'second' });
    await createManagedSecret(TAKEN, { token: 'first' });
    await updateThroughKrypton(TAKEN, { token: b64('second') });
    await deleteThroughKrypton(TAKEN);
    await createManagedSecret(TAKEN, { token: 'again' });
    // Consumers shows the last restart's tables, whether or not another test restarted first.
    await restartThroughKrypton(SECRET);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(VIEWS.map(view => [view.name, view] as const))(
    'holds in %s',
    async (name, view) => {
      const found: Record<string, string[]> = {};
      for (const width of WIDTHS) {
        await onPage(context, `layout-${name}-${width}`, async page => {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(view.path);
          await view.ready(page).first().waitFor();
          await settled(page);
          await view.then?.(page);
          await screenshot(page, `layout-${name}-${width}`);
          if (DOCS_DIR)
            copyFileSync(
              join(stack().artifactsDir, `layout-${name}-${width}.png`),
              join(DOCS_DIR, `${name}-${width}.png`),
            );
          found[width] = await layoutProblems(page);
        });
      }
      expect(found).toEqual({ 1280: [], 800: [] });
    },
  );
});
