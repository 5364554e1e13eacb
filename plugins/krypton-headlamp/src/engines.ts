import {
  DEFAULT_ANNOTATION_PREFIX,
  EngineSettings,
  KryptonEngines,
  KryptonError,
  KubeGateway,
  LiveGate,
  RBAC_ONLY_GATE,
  VersionedSecretsOptions,
  createEngines,
  parseHistoryLimit,
  parseManagedOnly,
} from '@krypton/core';
import { WEB_CRYPTO_MISSING } from './messages';

export { WEB_CRYPTO_MISSING };

/** The settings the engines read; each defaults as an unconfigured Krypton server does. */
export type HeadlampKryptonSettings = EngineSettings;

export const DEFAULT_HEADLAMP_SETTINGS: HeadlampKryptonSettings = {
  annotationPrefix: DEFAULT_ANNOTATION_PREFIX,
  managedOnly: parseManagedOnly(undefined),
  historyLimit: parseHistoryLimit(undefined),
};

/** The gate inside Headlamp: the core's RBAC_ONLY_GATE, as there is no trusted server. */
export { RBAC_ONLY_GATE };

/**
 * History names and binds snapshots by SHA-256 of the live UID (the core's hash32, on Web Crypto).
 * Browsers give `crypto.subtle` to secure contexts only, so an in-cluster Headlamp on plain HTTP
 * has none: refuse up front, with a message, rather than fail inside the first history call.
 */
export function requireWebCrypto(
  scope: { crypto?: { subtle?: unknown } } = globalThis,
): void {
  if (typeof scope.crypto?.subtle !== 'object' || scope.crypto.subtle === null)
    throw new KryptonError('unavailable', WEB_CRYPTO_MISSING);
}

/** The engines of one cluster with the gate and settings in force inside Headlamp. */
export interface HeadlampKrypton extends KryptonEngines {
  gate: LiveGate;
  /** The settings in force, for views that foretell what the engines will do (retention). */
  settings: HeadlampKryptonSettings;
}

/** The core's engines for one cluster, acting as the signed-in user. */
export function headlampKrypton(options: {
  /** The user's gateway on Headlamp's API proxy (HeadlampKubeGateway). */
  gateway: KubeGateway;
  /** Headlamp's name of the cluster. */
  cluster: string;
  /** Who acts, as recorded in snapshot-by (headlampActor asks the API server). */
  actor: VersionedSecretsOptions['actor'];
  settings?: Partial<HeadlampKryptonSettings>;
}): HeadlampKrypton {
  requireWebCrypto();
  const settings = { ...DEFAULT_HEADLAMP_SETTINGS, ...options.settings };
  // Headlamp has one identity, the user's: every call, the history archive and workload patches
  // included, is theirs, as in the server's impersonation mode, so nothing needs a dry run first.
  const engines = createEngines({
    mode: 'impersonation',
    gateways: { user: options.gateway, krypton: options.gateway },
    cluster: options.cluster,
    settings,
    actor: options.actor,
  });
  return { ...engines, gate: RBAC_ONLY_GATE, settings };
}
