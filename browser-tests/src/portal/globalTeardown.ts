/** Jest global teardown: stops the portal and the control plane of globalSetup. */
export default async function globalTeardown(): Promise<void> {
  const stack = globalThis.__kryptonPortalStack;
  globalThis.__kryptonPortalStack = undefined;
  await stack?.stop();
}
