import { StorageMigrationStatus } from '../dto';
import { fromKubeError } from './errors';
import { KubeApiError, KubeGateway, KubeObject, ResourceType } from './types';

/** The API versions of storagemigration.k8s.io that Kubernetes has served, newest first. */
const VERSIONS = ['v1beta1', 'v1alpha1'];

interface Migration extends KubeObject {
  spec?: { resource?: { group?: string; resource?: string } };
  status?: { conditions?: Array<{ type?: string; status?: string }> };
}

const type = (version: string): ResourceType<Migration> => ({
  apiPath: `/apis/storagemigration.k8s.io/${version}`,
  plural: 'storageversionmigrations',
  kind: 'StorageVersionMigration',
  clusterScoped: true,
});

function phaseOf(migration: Migration): string {
  const conditions = migration.status?.conditions ?? [];
  for (const phase of ['Failed', 'Succeeded', 'Running']) {
    if (conditions.some(c => c.type === phase && c.status === 'True'))
      return phase;
  }
  return 'Pending';
}

/**
 * The cluster's own StorageVersionMigrations of core Secrets, where it serves the API. Krypton's
 * rewrite stays the path that is sure to cover its immutable snapshots; this only shows whether
 * the cluster's migration of every other Secret ran.
 */
export async function storageMigrationStatus(
  gateway: KubeGateway,
): Promise<StorageMigrationStatus> {
  for (const version of VERSIONS) {
    let items: Migration[];
    try {
      // One page is plenty: clusters keep a handful of migrations.
      items = (
        await gateway.list(type(version), '', {
          limit: 100,
          maxBytes: 4 * 1024 * 1024,
        })
      ).items;
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 404) continue;
      throw fromKubeError(err);
    }
    return {
      served: true,
      migrations: items
        .filter(
          m =>
            (m.spec?.resource?.group ?? '') === '' &&
            m.spec?.resource?.resource === 'secrets',
        )
        .map(m => ({ name: m.metadata.name ?? '', phase: phaseOf(m) })),
    };
  }
  return { served: false, migrations: [] };
}
