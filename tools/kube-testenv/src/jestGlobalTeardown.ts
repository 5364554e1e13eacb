import { STATE_ENV } from './testCluster';

/** Jest global teardown: stops the control plane that jestGlobalSetup started, if any. */
export default async function jestGlobalTeardown(): Promise<void> {
  const cp = globalThis.__kryptonControlPlane;
  if (cp) {
    await cp.stop();
    globalThis.__kryptonControlPlane = undefined;
    delete process.env[STATE_ENV];
  }
}
