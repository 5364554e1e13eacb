import { ClusterAdmin } from '@krypton/kube-testenv';
import { execFile } from 'node:child_process';
import type { NativeSecret } from '@krypton/core';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Browser,
  BrowserContext,
  Page,
  Request,
  chromium,
} from 'playwright-core';
import { PortalStackInfo, STACK_ENV } from './portal/stack';

/** The flags the brief gives for Debian's Chromium in a container without a display. */
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

export const DEMO_NAMESPACE = 'krypton-demo';

export function stack(): PortalStackInfo {
  const raw = process.env[STACK_ENV];
  if (!raw) {
    throw new Error(
      `${STACK_ENV} is not set: run the browser tests with yarn test:browser`,
    );
  }
  return JSON.parse(raw) as PortalStackInfo;
}

/**
 * Makes a stack started in this process the one that the helpers here use, for callers outside
 * the browser suite (whose global setup hands its stack over the same way).
 */
export function provideStack(info: PortalStackInfo): void {
  process.env[STACK_ENV] = JSON.stringify(info);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.KRYPTON_CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/**
 * The example portal's two demo users, both of team-a: the guest (`user:default/guest`) and the
 * reviewer (`user:default/reviewer`), who approves what the guest requests.
 */
export type DemoUser = 'guest' | 'reviewer';

/**
 * A browser context signed in as one of the demo's users (by default the guest), allowed to use
 * the clipboard so that Copy can be checked against what it really wrote.
 *
 * The guest's first context of a stack signs in through the sign-in page and keeps the browser
 * state that the sign-in left (the guest provider's choice in local storage, and cookies); later
 * guest contexts start from it, as a returning browser does, and the app signs them in on their
 * first page load instead of loading the sign-in page once more.
 */
export async function signedInContext(
  browser: Browser,
  user: DemoUser = 'guest',
): Promise<BrowserContext> {
  const { appUrl } = stack();
  // The reviewer signs in afresh in each context: only the guest's sign-in is kept for reuse.
  const signInStateFile =
    user === 'guest' ? stack().signInStateFile : undefined;
  const saved =
    signInStateFile && existsSync(signInStateFile)
      ? signInStateFile
      : undefined;
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    baseURL: appUrl,
    storageState: saved,
    // The dev server sends its 43 MB of development bundles on every page load, without cache
    // validators, brotli-compressed unless the browser declines: over loopback that compression
    // cost about a CPU-second a page, which the portal and Chromium share two cores for.
    extraHTTPHeaders: { 'Accept-Encoding': 'identity' },
  });
  // The portal's dev server and backend share two cores with the browser: give each wait room.
  context.setDefaultTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: appUrl,
  });
  if (saved) return context;
  const page = await context.newPage();
  await page.goto('/');
  // The guest's card enters; the reviewer's (a provider of the example app's own) signs in.
  const enter = page.getByRole('button', {
    name: user === 'guest' ? 'Enter' : 'Sign In',
  });
  await enter.click();
  await enter.waitFor({ state: 'detached' });
  if (signInStateFile) {
    // Renamed into place, so that a reader never sees half of it; it holds the guest's session.
    const partial = `${signInStateFile}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(await context.storageState()), {
      mode: 0o600,
    });
    renameSync(partial, signInStateFile);
  }
  await page.close();
  return context;
}

/**
 * Saves the page as <name>.png in the artifacts folder. Backstage scrolls its content inside the
 * page rather than the document, so the viewport is stretched to the tallest scrolling element
 * for the capture, and restored after it.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
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
  try {
    await page.screenshot({
      path: join(stack().artifactsDir, `${name}.png`),
      fullPage: true,
    });
  } finally {
    await page.setViewportSize(viewport);
  }
}

export async function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

let adminClient: { kubeconfig: string; client: ClusterAdmin } | undefined;

/** The control plane's admin, for setting up and checking cluster state. */
export function admin(): ClusterAdmin {
  const { adminKubeconfig } = stack();
  if (adminClient?.kubeconfig !== adminKubeconfig) {
    adminClient?.client.close();
    adminClient = {
      kubeconfig: adminKubeconfig,
      client: new ClusterAdmin(adminKubeconfig),
    };
  }
  return adminClient.client;
}

/**
 * kubectl's own client-side apply as the admin, through its stdin: for tests about what kubectl
 * leaves on an object (its last-applied copy, which holds the data).
 */
export async function kubectlApply(manifest: object): Promise<void> {
  const { kubectl: bin, adminKubeconfig } = stack();
  await new Promise<void>((resolve, reject) => {
    const child = execFile(
      bin,
      ['--kubeconfig', adminKubeconfig, 'apply', '-f', '-'],
      err => (err ? reject(err) : resolve()),
    );
    child.stdin!.end(JSON.stringify(manifest));
  });
}

export function readSecret(
  name: string,
  namespace = DEMO_NAMESPACE,
): Promise<NativeSecret> {
  return admin().secret(namespace, name);
}

export function decodeValue(secret: NativeSecret, key: string): string {
  return Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
}

/**
 * A Secret managed by Krypton in the demo namespace, owned by the guest's team, with the given
 * text values; each test uses Secrets of its own.
 */
export async function createManagedSecret(
  name: string,
  values: Record<string, string>,
  annotations: Record<string, string> = {},
): Promise<void> {
  await admin().apply({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name,
      namespace: DEMO_NAMESPACE,
      labels: { 'krypton.io/managed-by': 'krypton' },
      annotations: {
        'krypton.io/version': '1',
        'krypton.io/owners': 'group:default/team-a',
        ...annotations,
      },
    },
    type: 'Opaque',
    stringData: values,
  });
}

export function detailPath(name: string, namespace = DEMO_NAMESPACE): string {
  return `/krypton/secret/${namespace}/${name}`;
}

/**
 * Records what a page asks the network for and every dialog it opens, so that a test can prove
 * that rendering something loaded and ran nothing.
 */
export function watchPage(page: Page) {
  const requests: string[] = [];
  const dialogs: string[] = [];
  const onRequest = (request: Request) => requests.push(request.url());
  page.on('request', onRequest);
  page.on('dialog', dialog => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => undefined);
  });
  return {
    requests,
    dialogs,
    /** Requests made from a given moment on. */
    since: (mark: number) => requests.slice(mark),
  };
}

/** The guest's Backstage token, for setting up state through Krypton's own API. */
async function guestToken(): Promise<string> {
  const res = await fetch(
    `${stack().backendUrl}/api/auth/guest/refresh?env=development`,
    { headers: { 'X-Requested-With': 'XMLHttpRequest' } },
  );
  if (!res.ok) throw new Error(`guest sign-in answered ${res.status}`);
  const body = (await res.json()) as { backstageIdentity: { token: string } };
  return body.backstageIdentity.token;
}

/**
 * One request to Krypton's API for the demo namespace as the guest, for setting up state; a
 * refusal throws with what was asked and the status.
 */
async function asGuest(
  method: 'PUT' | 'DELETE' | 'POST',
  path: string,
  body?: object,
): Promise<void> {
  const res = await fetch(
    `${stack().backendUrl}/api/krypton/namespaces/${DEMO_NAMESPACE}/${path}`,
    {
      method,
      headers: {
        Authorization: `Bearer ${await guestToken()}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    },
  );
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
}

/**
 * Updates a Secret's text values through Krypton as the guest, so that it gains a version; where
 * its changes need approval, the update becomes a change request (202) instead.
 */
export async function updateThroughKrypton(
  name: string,
  data: Record<string, string>,
): Promise<void> {
  const live = await readSecret(name);
  await asGuest('PUT', `secrets/${name}`, {
    resourceVersion: live.metadata.resourceVersion,
    data,
  });
}

/** Deletes a Secret through Krypton as the guest, keeping its history (Deleted Secrets lists it). */
export async function deleteThroughKrypton(name: string): Promise<void> {
  const live = await readSecret(name);
  const query = new URLSearchParams({
    resourceVersion: live.metadata.resourceVersion ?? '',
    keepHistory: 'true',
  });
  await asGuest('DELETE', `secrets/${name}?${query}`);
}

/** Restarts a Secret's consumers through Krypton as the guest, so that its last restart shows. */
export async function restartThroughKrypton(name: string): Promise<void> {
  await asGuest('POST', `secrets/${name}/restart-consumers`);
}

/** The names of the history snapshots in the demo namespace. */
export async function snapshotNames(): Promise<string[]> {
  return (await admin().snapshots(DEMO_NAMESPACE)).map(s => s.metadata.name);
}

/**
 * Runs one scenario on a fresh page; when it fails, the page as it was is kept as
 * failure-<name>.png next to the other screenshots before the error is passed on.
 */
export async function onPage(
  context: BrowserContext,
  name: string,
  scenario: (page: Page) => Promise<void>,
): Promise<void> {
  const page = await context.newPage();
  try {
    await scenario(page);
  } catch (e) {
    await screenshot(page, `failure-${name}`).catch(() => undefined);
    throw e;
  } finally {
    await page.close();
  }
}
