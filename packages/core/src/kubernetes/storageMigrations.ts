import { StorageMigration, StorageMigrationStatus } from '../dto';
import { KryptonError, messages } from '../errors';
import { fromKubeError } from './errors';
import { IncompleteListError, readInventory } from './inventory';
import { KubeApiError, KubeGateway, KubeObject, ResourceType } from './types';

/**
 * The API versions of storagemigration.k8s.io, newest first: v1 is GA from Kubernetes 1.37 (and
 * served by the local control plane, v1.37.2), the others are what older clusters serve.
 */
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];

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
 * A manifest that migrates every core Secret, in the API version the cluster serves.
 *
 * @public
 */
export function storageMigrationManifest(version: string): string {
  return [
    `apiVersion: storagemigration.k8s.io/${version}`,
    'kind: StorageVersionMigration',
    'metadata:',
    '  generateName: secrets-',
    'spec:',
    '  resource:',
    '    group: ""',
    ...(version === 'v1alpha1' ? ['    version: v1'] : []),
    '    resource: secrets',
    '',
  ].join('\n');
}

/**
 * Whether a migration of Secrets created at or after `since` (the start of Krypton's run, which
 * was after the new key was in place) has succeeded. An older one may have run before the key
 * rotation, so it proves nothing.
 *
 * @public
 */
export function migrationSucceededSince(
  migrations: StorageMigration[],
  since: string,
): boolean {
  const from = Date.parse(since);
  return migrations.some(
    m =>
      m.phase === 'Succeeded' &&
      m.createdAt !== undefined &&
      Date.parse(m.createdAt) >= from,
  );
}

/**
 * The cluster's own StorageVersionMigrations of core Secrets, where it serves the API, read to
 * the end of every page. Krypton's rewrite stays the path that is sure to cover its immutable
 * snapshots; this shows whether the cluster's migration of every other Secret ran.
 *
 * @public
 */
export async function storageMigrationStatus(
  gateway: KubeGateway,
  options: { since?: string } = {},
): Promise<StorageMigrationStatus> {
  for (const version of VERSIONS) {
    const migrations: StorageMigration[] = [];
    try {
      for await (const page of readInventory(request =>
        gateway.list(type(version), '', request),
      )) {
        for (const m of page) {
          if (
            (m.spec?.resource?.group ?? '') !== '' ||
            m.spec?.resource?.resource !== 'secrets'
          )
            continue;
          const migration: StorageMigration = {
            name: m.metadata.name ?? '',
            phase: phaseOf(m),
          };
          if (m.metadata.creationTimestamp)
            migration.createdAt = m.metadata.creationTimestamp;
          migrations.push(migration);
        }
      }
    } catch (err) {
      if (
        err instanceof KubeApiError &&
        err.status === 404 &&
        !migrations.length
      )
        continue;
      // Thousands of migrations, or a continuation that broke: the status is unknown.
      if (err instanceof IncompleteListError)
        throw new KryptonError('unavailable', messages.unavailable);
      throw fromKubeError(err);
    }
    const status: StorageMigrationStatus = {
      served: true,
      version,
      migrations,
      manifest: storageMigrationManifest(version),
    };
    if (options.since !== undefined)
      status.succeededSince = migrationSucceededSince(
        migrations,
        options.since,
      );
    return status;
  }
  return { served: false, migrations: [] };
}
