import { STACK_ENV, PortalStack, startPortalStack } from './stack';

declare global {
  // eslint-disable-next-line no-var
  var __kryptonPortalStack: PortalStack | undefined;
}

/** Jest global setup: one control plane and one portal for the whole browser suite. */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const stack = await startPortalStack();
  globalThis.__kryptonPortalStack = stack;
  process.env[STACK_ENV] = JSON.stringify(stack.info);
  process.stdout.write(
    `\n[browser-tests] portal ready at ${stack.info.appUrl} in ${
      Date.now() - started
    } ms\n`,
  );
}
