import { startControlPlane, ControlPlane } from './controlPlane';
import {
  EXTERNAL_KUBECONFIG_ENV,
  STATE_ENV,
  externalClusterState,
} from './testCluster';

declare global {
  // eslint-disable-next-line no-var
  var __kryptonControlPlane: ControlPlane | undefined;
}

/**
 * Jest global setup: starts one control plane for the test run, or connects to the cluster named
 * by KRYPTON_TEST_KUBECONFIG, and hands it to the workers through the environment.
 */
export default async function jestGlobalSetup(): Promise<void> {
  if (process.env[STATE_ENV]) {
    return; // an outer runner already provides the cluster
  }
  const external = process.env[EXTERNAL_KUBECONFIG_ENV];
  if (external) {
    process.env[STATE_ENV] = JSON.stringify(externalClusterState(external));
    process.stdout.write(
      `\n[kube-testenv] using the existing cluster of ${external}\n`,
    );
    return;
  }
  const cp = await startControlPlane();
  globalThis.__kryptonControlPlane = cp;
  process.env[STATE_ENV] = JSON.stringify(cp.state);
  process.stdout.write(
    `\n[kube-testenv] kube-apiserver ready at ${cp.state.server} in ${cp.state.startedInMs} ms (started by this test run)\n`,
  );
}
