// The fresh app in Debian's Chromium, through playwright-core (the browser tests' dependency,
// launched the way browser-tests/src/support.ts launches it). Signs in as the guest, opens the
// Krypton page from the sidebar, lists krypton-demo, opens database-credentials, checks its empty
// History tab, edits a value, checks that History lists the version the edit archived, opens the
// Secrets tab of the example component that links it, and checks the cluster. Screenshots go to
// $INSTALL_TEST_ARTIFACTS.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const appUrl = process.env.INSTALL_TEST_URL;
const artifacts = process.env.INSTALL_TEST_ARTIFACTS;
const kubectlBin = process.env.INSTALL_TEST_KUBECTL;
const kubeconfig = process.env.INSTALL_TEST_KUBECONFIG;
const NAMESPACE = 'krypton-demo';
const SECRET = 'database-credentials';
const KEY = 'username';
const NEW_VALUE = 'payments-install-test';
const TEAM = 'group:default/team-a';

const log = m => console.error(`[install-test] ${m}`);
const kubectl = (...args) =>
  execFileSync(kubectlBin, ['--kubeconfig', kubeconfig, ...args], {
    encoding: 'utf8',
  });

/** The flags the browser tests use for Debian's Chromium in a container without a display. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The catalog reads the app's example org a little after start-up; until the guest is a member of
 * team-a there, its token carries no group that the demo's RBAC and access rules name.
 */
async function waitForGuestInTeam() {
  const deadline = Date.now() + 180_000;
  let ent = [];
  while (Date.now() < deadline) {
    const res = await fetch(
      `${appUrl}/api/auth/guest/refresh?env=development`,
      {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
      },
    ).catch(() => undefined);
    if (res?.ok) {
      const { identity } = (await res.json()).backstageIdentity;
      ent = identity.ownershipEntityRefs ?? [];
      if (ent.includes(TEAM)) {
        log(
          `the guest signs in as ${
            identity.userEntityRef
          }, ownership ${ent.join(', ')}`,
        );
        return;
      }
    }
    await new Promise(r => setTimeout(r, 2000));
  }
  throw new Error(
    `the guest's identity never named ${TEAM} (last: ${
      ent.join(', ') || 'no token'
    })`,
  );
}

/** Backstage scrolls inside the page, so the viewport is stretched for a whole capture. */
async function screenshot(page, name) {
  const viewport = page.viewportSize() ?? { width: 1400, height: 1000 };
  const height = await page.evaluate(() =>
    Math.max(
      document.documentElement.scrollHeight,
      ...Array.from(document.querySelectorAll('main, main *'))
        .filter(el => el.scrollHeight > el.clientHeight + 1)
        .map(el => el.scrollHeight + el.getBoundingClientRect().top),
    ),
  );
  await page.setViewportSize({
    width: viewport.width,
    height: Math.min(Math.max(height, viewport.height), 8000),
  });
  // Let the tab indicator and other transitions settle.
  await page.waitForTimeout(500);
  const path = join(artifacts, `${name}.png`);
  try {
    await page.screenshot({ path, fullPage: true });
  } finally {
    await page.setViewportSize(viewport);
  }
  log(`screenshot ${path}`);
}

async function step(name, fn) {
  const t0 = Date.now();
  await fn();
  log(`  ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
}

await waitForGuestInTeam();
const browser = await chromium.launch({
  executablePath: process.env.KRYPTON_CHROMIUM ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
let page;
try {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    baseURL: appUrl,
  });
  context.setDefaultTimeout(60_000);
  page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));

  await step('signed in as guest', async () => {
    await page.goto('/');
    const enter = page.getByRole('button', { name: 'Enter' });
    await enter.click();
    await enter.waitFor({ state: 'detached' });
  });

  await step('Krypton in the sidebar, its page at /krypton', async () => {
    // No code in the app names Krypton: the sidebar lists the page that discovery found.
    const nav = page.getByRole('link', { name: 'Krypton', exact: true });
    await nav.waitFor();
    await screenshot(page, '01-home-with-krypton-in-sidebar');
    await nav.click();
    await page.waitForURL(/\/krypton$/);
  });

  await step(`${NAMESPACE} listed`, async () => {
    const picker = page.getByRole('form', { name: 'Choose a namespace' });
    await picker.getByLabel('Namespace').fill(NAMESPACE);
    await picker.getByRole('button', { name: 'Show Secrets' }).click();
    await page.getByRole('link', { name: SECRET, exact: true }).waitFor();
    await screenshot(page, '02-krypton-page');
  });

  await step(`${SECRET} opened, empty History tab`, async () => {
    await page.getByRole('link', { name: SECRET, exact: true }).click();
    await page.waitForURL(new RegExp(`/krypton/secret/${NAMESPACE}/${SECRET}`));
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByText('No versions yet: Krypton keeps a version').waitFor();
    // The detail view names the Secret it shows.
    const named = await page.getByText(SECRET, { exact: true }).count();
    if (named === 0)
      throw new Error(`the detail view does not show the name ${SECRET}`);
    await screenshot(page, '03-history-empty');
  });

  await step(`${KEY} edited through Krypton`, async () => {
    await page.getByRole('tab', { name: 'Values' }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page
      .getByRole('textbox', { name: `Value of ${KEY}` })
      .fill(NEW_VALUE);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
  });

  await step('History lists version 1', async () => {
    await page.getByRole('tab', { name: 'History' }).click();
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.getByRole('rowheader', { name: 'Version 1' }).waitFor();
    await screenshot(page, '04-history-version-1');
  });

  await step("the example component's Secrets tab", async () => {
    // The entity content that discovery added to the catalog's entity page.
    await page.goto('/catalog/default/component/example-website');
    // The catalog's entity header lists its contents as links.
    await page
      .getByRole('navigation', { name: 'Content navigation' })
      .getByRole('link', { name: 'Secrets', exact: true })
      .click();
    await page.waitForURL(
      /\/catalog\/default\/component\/example-website\/krypton$/,
    );
    await page.getByRole('link', { name: SECRET, exact: true }).waitFor();
    await screenshot(page, '05-entity-secrets-tab');
  });

  // The cluster agrees: the live value changed and one snapshot of the old state exists.
  const live = JSON.parse(
    kubectl('get', 'secret', SECRET, '-n', NAMESPACE, '-o', 'json'),
  );
  const value = Buffer.from(live.data[KEY], 'base64').toString('utf8');
  const snapshots = kubectl(
    'get',
    'secrets',
    '-n',
    NAMESPACE,
    '-l',
    'krypton.io/kind=history',
    '-o',
    'jsonpath={range .items[*]}{.metadata.annotations.krypton\\.io/history-of}{"\\n"}{end}',
  )
    .split('\n')
    .filter(n => n === SECRET);
  if (value !== NEW_VALUE)
    throw new Error(`the cluster holds ${KEY}=${value}, not ${NEW_VALUE}`);
  if (snapshots.length !== 1)
    throw new Error(`${snapshots.length} snapshots of ${SECRET}, expected 1`);
  log(
    `the cluster holds ${KEY}=${NEW_VALUE}, version ${live.metadata.annotations['krypton.io/version']}, and 1 snapshot of the old state`,
  );
  for (const p of problems) log(`warning: ${p}`);
} catch (e) {
  if (page) await screenshot(page, 'failure').catch(() => undefined);
  throw e;
} finally {
  await browser.close();
}
