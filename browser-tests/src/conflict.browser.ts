import { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createManagedSecret,
  decodeValue,
  detailPath,
  launchBrowser,
  readSecret,
  screenshot,
  signedInContext,
} from './support';

const SECRET = 'browser-two-tabs';
const DRAFTED = 'browser-draft-kept';

/**
 * Resolves once the page's signals client has asked to hear of the Secret of this uid. The
 * client subscribes after its WebSocket opens, which on a busy machine can be after the form is
 * ready; a save before that would pass the page by, so the test waits for the request itself.
 */
function signalSubscribed(page: Page, uid: string): Promise<void> {
  const channel = `krypton:secret:${uid}`;
  return new Promise(resolve => {
    page.on('websocket', socket =>
      socket.on('framesent', frame => {
        if (typeof frame.payload !== 'string') return;
        try {
          const sent = JSON.parse(frame.payload);
          if (sent.action === 'subscribe' && sent.channel === channel)
            resolve();
        } catch {
          // Not a signals frame.
        }
      }),
    );
  });
}

async function openEditor(
  context: BrowserContext,
  name = SECRET,
): Promise<{ page: Page; subscribed: Promise<void> }> {
  const page = await context.newPage();
  const { uid } = (await readSecret(name)).metadata;
  const subscribed = signalSubscribed(page, uid!);
  await page.goto(detailPath(name));
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('form', { name: `Edit Secret ${name}` }).waitFor();
  return { page, subscribed };
}

async function setValue(page: Page, key: string, value: string) {
  const field = page.getByRole('textbox', { name: `Value of ${key}` });
  await field.fill(value);
}

describe('editing one Secret in two tabs', () => {
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    context = await signedInContext(browser);
    await createManagedSecret(SECRET, { color: 'red' });
    await createManagedSecret(DRAFTED, { color: 'red' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('tells the second tab of the first save at once, gives its save a conflict prompt, and Reload latest recovers', async () => {
    const { page: first } = await openEditor(context);
    const { page: second, subscribed } = await openEditor(context);
    await subscribed;

    await setValue(first, 'color', 'green');
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(decodeValue(await readSecret(SECRET), 'color')).toBe('green');

    // The save's signal reaches the open form at once (the signals plugin, over its WebSocket);
    // the tab that saved takes its own signal as no news.
    await second
      .getByText(
        'Changed elsewhere: this Secret was changed outside this page.',
        {
          exact: false,
        },
      )
      .waitFor({ timeout: 10_000 });
    await second
      .getByText('Changed elsewhere. A newer version of this Secret exists.', {
        exact: false,
      })
      .waitFor();
    await screenshot(second, 'edit-changed-elsewhere');
    await first.waitForTimeout(500);
    expect(
      await first.getByText('Changed elsewhere', { exact: false }).count(),
    ).toBe(0);

    await setValue(second, 'color', 'blue');
    await second.getByRole('button', { name: 'Save' }).click();
    const prompt = second.getByRole('dialog', {
      name: 'This Secret changed since you loaded it.',
    });
    await prompt.waitFor();
    await screenshot(second, 'edit-conflict-prompt');
    // Nothing was written over the first tab's save.
    expect(decodeValue(await readSecret(SECRET), 'color')).toBe('green');

    await prompt.getByRole('button', { name: 'Reload latest' }).click();
    await prompt.waitFor({ state: 'detached' });
    // The draft now starts from the live Secret: the first tab's value and its revision.
    const field = second.getByRole('textbox', { name: 'Value of color' });
    await expect(field.inputValue()).resolves.toBe('green');
    const live = await readSecret(SECRET);
    await second
      .getByText(`loaded revision ${live.metadata.resourceVersion}`, {
        exact: false,
      })
      .waitFor();

    await setValue(second, 'color', 'blue');
    await second.getByRole('button', { name: 'Save' }).click();
    await second.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const saved = await readSecret(SECRET);
    expect(decodeValue(saved, 'color')).toBe('blue');
    // Each save kept the state before it: version 1 (red) and version 2 (green).
    expect(saved.metadata.annotations?.['krypton.io/version']).toBe('3');
  });

  it('keeps a draft across tabs, and asks before Cancel or closing the page throws it away', async () => {
    const { page } = await openEditor(context, DRAFTED);
    await setValue(page, 'color', 'purple');

    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByText('No versions yet', { exact: false }).waitFor();
    await page.getByRole('tab', { name: 'Values' }).click();
    const field = page.getByRole('textbox', { name: 'Value of color' });
    await expect(field.inputValue()).resolves.toBe('purple');

    await page.getByRole('button', { name: 'Cancel editing' }).click();
    const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
    await ask.waitFor();
    await screenshot(page, 'edit-discard-prompt');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await ask.waitFor({ state: 'detached' });
    await expect(field.inputValue()).resolves.toBe('purple');

    // Closing the tab meets the browser's own prompt while the draft has changes.
    const prompt = new Promise<string>(resolve =>
      page.once('dialog', dialog => {
        resolve(dialog.type());
        dialog.dismiss().catch(() => undefined);
      }),
    );
    await page.close({ runBeforeUnload: true });
    await expect(prompt).resolves.toBe('beforeunload');
    await page.close();
    // Nothing was saved by any of it.
    expect(decodeValue(await readSecret(DRAFTED), 'color')).toBe('red');
  });
});
