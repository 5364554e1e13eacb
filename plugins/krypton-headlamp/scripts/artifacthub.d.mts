// Types of scripts/artifacthub.mjs, for the strict TypeScript of its unit test.

export interface PluginPackageJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  license?: unknown;
  devDependencies?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface ArchivePackageJson {
  name: string;
  version: string;
  description: string;
  license: string;
  devDependencies: { '@kinvolk/headlamp-plugin': string };
}

export const PLUGIN_FOLDER: string;
export const PLACEHOLDER_HOST: string;
export function cleanPackageJson(pkg: PluginPackageJson): ArchivePackageJson;
export function archiveFileName(pkg: PluginPackageJson): string;
export function archiveChecksum(bytes: Uint8Array): string;
export function releaseArchiveUrl(
  value: string | undefined,
  fileName: string,
): string | undefined;
export function artifactHubPkg(options: {
  pkg: PluginPackageJson;
  checksum: string;
  archiveUrl: string | undefined;
  createdAt: Date;
}): string;
