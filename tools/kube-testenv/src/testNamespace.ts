import { randomBytes } from 'node:crypto';
import { ClusterAdmin } from './clusterAdmin';

/**
 * Creates a namespace with a random suffix for one test file, and deletes it afterwards.
 * Call it at the top level of a test file.
 */
export function useTestNamespace(prefix = 'krypton-t'): {
  readonly name: string;
} {
  const ns = { name: `${prefix}-${randomBytes(4).toString('hex')}` };
  let admin: ClusterAdmin | undefined;
  beforeAll(async () => {
    admin = new ClusterAdmin();
    await admin.createNamespace(ns.name);
  });
  afterAll(async () => {
    await admin?.deleteNamespace(ns.name).catch(() => undefined);
    admin?.close();
  });
  return ns;
}
