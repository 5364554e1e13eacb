// Only the engine entry: the root entry brings Backstage's permission client, which neither
// Headlamp nor its build has a place for.
import {
  DEFAULT_ANNOTATION_PREFIX,
  KryptonError,
  KubeGateway,
  LiveGate,
  LiveSecrets,
  Parsed,
  RestartConsumers,
  SecretHistory,
  VersionedSecrets,
  VersionedSecretsOptions,
  parseHistoryLimit,
  parseManagedOnly,
} from '@krypton/plugin-krypton-common/engine';
import { WEB_CRYPTO_MISSING } from './messages';

export { WEB_CRYPTO_MISSING };

/** The settings the engines read; each defaults as an unconfigured Krypton server does. */
export interface HeadlampKryptonSettings {
  /** krypton.annotationPrefix on the server. */
  annotationPrefix: string;
  /** KRYPTON_MANAGED_ONLY: only Krypton-managed Secrets are served. */
  managedOnly: boolean;
  /** KRYPTON_HISTORY_LIMIT, parsed: an invalid limit refuses history writes, never defaults. */
  historyLimit: Parsed<number>;
}

export const DEFAULT_HEADLAMP_SETTINGS: HeadlampKryptonSettings = {
  annotationPrefix: DEFAULT_ANNOTATION_PREFIX,
  managedOnly: parseManagedOnly(undefined),
  historyLimit: parseHistoryLimit(undefined),
};

/**
 * The gate inside Headlamp: there is no trusted server, so the user's Kubernetes RBAC, which the
 * API server applies to every request, is the only gate. Krypton's access-rule annotations are
 * advisory here: anyone who could bypass them with Headlamp's own editor or kubectl could bypass
 * a check made in their own browser too.
 */
export const RBAC_ONLY_GATE: LiveGate = {
  permit: async () => () => {},
  admit: () => {},
};

/**
 * History names and binds snapshots by SHA-256 of the live UID (common's hash32, on Web Crypto).
 * Browsers give `crypto.subtle` to secure contexts only, so an in-cluster Headlamp on plain HTTP
 * has none: refuse up front, with a message, rather than fail inside the first history call.
 */
export function requireWebCrypto(
  scope: { crypto?: { subtle?: unknown } } = globalThis,
): void {
  if (typeof scope.crypto?.subtle !== 'object' || scope.crypto.subtle === null)
    throw new KryptonError('unavailable', WEB_CRYPTO_MISSING);
}

/** Krypton's engines for one cluster, acting as the signed-in user. */
export interface HeadlampKrypton {
  live: LiveSecrets;
  versioned: VersionedSecrets;
  restart: RestartConsumers;
  gate: LiveGate;
  /** The settings in force, for views that foretell what the engines will do (retention). */
  settings: HeadlampKryptonSettings;
}

/**
 * Wires common's engines as the server's `impersonation` mode does: every call, the history
 * archive and workload patches included, is the user's own, so nothing needs a dry run first.
 */
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
  const live = new LiveSecrets({
    gateway: options.gateway,
    cluster: options.cluster,
    annotationPrefix: settings.annotationPrefix,
    managedOnly: settings.managedOnly,
    historyLimit: settings.historyLimit,
    proveWrites: false,
  });
  const versioned = new VersionedSecrets({
    live,
    history: new SecretHistory({
      gateway: options.gateway,
      annotationPrefix: settings.annotationPrefix,
      historyLimit: settings.historyLimit,
    }),
    actor: options.actor,
  });
  const restart = new RestartConsumers({
    gateway: options.gateway,
    annotationPrefix: settings.annotationPrefix,
  });
  return { live, versioned, restart, gate: RBAC_ONLY_GATE, settings };
}
