/**
 * The portal stack and the Chromium helpers of the browser tests, for other workspaces that drive
 * the example portal themselves (the preview benchmark in bench/). Such a caller starts the stack
 * with startPortalStack() and hands it to the helpers with provideStack(), as the global setup does.
 */
export { startPortalStack, STACK_ENV } from './portal/stack';
export type { PortalStack, PortalStackInfo } from './portal/stack';
export {
  DEMO_NAMESPACE,
  createManagedSecret,
  detailPath,
  launchBrowser,
  signedInContext,
  stack,
  provideStack,
} from './support';
