import { Browser, BrowserContext, Page } from 'playwright-core';
import { layoutProblemsAfterResize } from './layoutCheck';
import {
  DEMO_NAMESPACE,
  createManagedSecret,
  decodeValue,
  detailPath,
  launchBrowser,
  readSecret,
  screenshot,
  signedInContext,
} from './support';

const SECRET = 'approval-db';
const BEFORE = 'before-approval-7d41';
const AFTER = 'after-approval-3b9e';
const REASON = 'Rotate: the password was in a build log.';

/**
 * Both people's pages stay open through the scenario, as two people's browsers would. The page
 * records the signals channels its client has asked to hear: the client subscribes once its
 * WebSocket is ready, which on a busy machine can be seconds after the page shows, and a signal
 * sent before that passes the page by (as in conflict.browser.ts).
 */
async function openPage(context: BrowserContext, path: string) {
  const page = await context.newPage();
  const channels = new Set<string>();
  page.on('websocket', socket =>
    socket.on('framesent', frame => {
      if (typeof frame.payload !== 'string') return;
      try {
        const sent = JSON.parse(frame.payload);
        if (sent.action === 'subscribe') channels.add(sent.channel);
      } catch {
        // Not a signals frame.
      }
    }),
  );
  await page.goto(path);
  const subscribed = async (channel: string) => {
    while (!channels.has(channel))
      await new Promise(resolve => setTimeout(resolve, 100));
  };
  return { page, subscribed };
}

/** Keeps the page as failure-<name>.png before a failed step's error goes on. */
async function step<T>(page: Page, name: string, run: () => Promise<T>) {
  try {
    return await run();
  } catch (e) {
    await screenshot(page, `failure-${name}`).catch(() => undefined);

    throw e;
  }
}

describe('four eyes: a change request between two people', () => {
  let browser: Browser;
  let guest: BrowserContext;
  let reviewer: BrowserContext;
  beforeAll(async () => {
    // The Secret's own annotation asks one approval of its owners (team-a: both demo users).
    await createManagedSecret(
      SECRET,
      { password: BEFORE },
      { 'krypton.io/required-approvals': '1' },
    );
    browser = await launchBrowser();
    guest = await signedInContext(browser);
    reviewer = await signedInContext(browser, 'reviewer');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the guest requests, the reviewer approves, and the guest sees the change applied', async () => {
    const { page: asker, subscribed } = await openPage(
      guest,
      detailPath(SECRET),
    );
    await step(asker, 'approval-request', async () => {
      await asker.getByText('Changes need approval').waitFor();
      await asker.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = asker.getByRole('form', { name: `Edit Secret ${SECRET}` });
      await form
        .getByRole('textbox', { name: 'Value of password' })
        .fill(AFTER);
      await form.getByLabel('Why this change').fill(REASON);
      await form.getByRole('button', { name: 'Request approval' }).click();
      await asker.getByText('Change requested').waitFor();
      await screenshot(asker, 'approval-requested');
      // Nothing was written.
      expect(decodeValue(await readSecret(SECRET), 'password')).toBe(BEFORE);

      await asker.getByRole('button', { name: 'Open Changes' }).click();
      await asker
        .getByRole('table', { name: `Change requests of ${SECRET}` })
        .getByText('Pending')
        .waitFor();
    });

    // The guest's page hears of the request before anyone decides on it.
    await subscribed('krypton:change-requests');
    const { page: approver } = await openPage(reviewer, '/krypton');
    await step(approver, 'approval-review', async () => {
      const waiting = approver.getByRole('table', {
        name: 'Waiting for your approval',
      });
      await waiting
        .getByRole('link', { name: `${DEMO_NAMESPACE}/${SECRET}` })
        .click();
      await approver.getByText(REASON).waitFor();
      await approver.getByText('user:default/guest').first().waitFor();
      // What the change does, key by key: no value until the reviewer reads and reveals one.
      const comparison = approver.getByRole('table', {
        name: 'Keys this change request changes',
      });
      const password = comparison.getByRole('row', { name: /^password/ });
      await password.getByText('Changed').waitFor();
      expect(await approver.getByText(AFTER).count()).toBe(0);
      await approver
        .getByRole('button', { name: 'Read the changed values' })
        .click();
      await approver
        .getByRole('button', {
          name: 'Reveal the value of password in proposed',
        })
        .click();
      await comparison.getByText(AFTER).waitFor();
      const problems: Record<number, string[]> = {};
      for (const width of [1280, 800]) {
        await approver.setViewportSize({ width, height: 900 });
        problems[width] = await layoutProblemsAfterResize(approver);
        await screenshot(approver, `approval-review-${width}`);
      }
      expect(problems).toEqual({ 1280: [], 800: [] });
      await approver.setViewportSize({ width: 1400, height: 1000 });
      await approver.getByRole('button', { name: 'Approve' }).click();
      const dialog = approver.getByRole('dialog');
      await dialog.getByLabel('Comment').fill('Checked with the DBA.');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await approver.getByText('Approved and applied.').waitFor();
    });
    expect(decodeValue(await readSecret(SECRET), 'password')).toBe(AFTER);

    // The guest's open page is told through signals: the request is applied, and the page offers
    // the live Secret it wrote.
    await step(asker, 'approval-applied', async () => {
      await asker
        .getByRole('table', { name: `Change requests of ${SECRET}` })
        .getByText('Applied')
        .waitFor();
      await screenshot(asker, 'approval-applied');
    });
    await asker.close();
    await approver.close();
  });
});
