/**
 * Retries `check` every 100 ms until `ok` accepts its value or the attempts run out, and returns
 * the last value. RBAC changes reach the apiserver's authorizer through a watch, so a test that
 * grants a right waits for it this way before it relies on it.
 */
export async function eventually<T>(
  check: () => Promise<T>,
  ok: (value: T) => boolean,
  attempts = 50,
): Promise<T> {
  let value = await check();
  for (let i = 1; i < attempts && !ok(value); i++) {
    await new Promise(r => setTimeout(r, 100));
    value = await check();
  }
  return value;
}
