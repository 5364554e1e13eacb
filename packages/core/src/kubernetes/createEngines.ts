import { IdentityMode } from '../dto';
import { ConsumerVersions } from './consumerVersions';
import { Parsed } from '../settings';
import { DeletedSecrets } from './deletedSecrets';
import { SecretHistory } from './history';
import { RequestGateways, engineGateways } from './identities';
import { LiveSecrets } from './liveSecrets';
import { OwnerSync } from './ownerSync';
import { OwnedSecretRules } from './secretOwner';
import { RestartConsumers } from './restartConsumers';
import { VersionedSecrets, VersionedSecretsOptions } from './versionedSecrets';

/**
 * The settings every engine of a request reads, as a Krypton server or host has parsed them.
 *
 * @public
 */
export interface EngineSettings {
  /** krypton.annotationPrefix. */
  annotationPrefix: string;
  /** KRYPTON_MANAGED_ONLY: only Krypton-managed Secrets are served. */
  managedOnly: boolean;
  /** KRYPTON_HISTORY_LIMIT, parsed: an invalid limit refuses history writes, never defaults. */
  historyLimit: Parsed<number>;
  /**
   * krypton.ownedSecrets: the owners whose Secrets may be edited, each edit with a reason (none
   * when absent: every owned Secret's edits are refused), and how Argo CD tracks.
   */
  ownedSecrets?: OwnedSecretRules;
}

/**
 * One request's engines, on one cluster, for one actor.
 *
 * @public
 */
export interface KryptonEngines {
  /** Reads, creates, adoptions and the write checks of live Secrets, as the user. */
  live: LiveSecrets;
  /** Writes that history stands behind: update, restore, delete, versions. */
  versioned: VersionedSecrets;
  /** Workload discovery and restarts, with the workload identity of the mode. */
  restart: RestartConsumers;
  /** The version each consuming pod holds; pods are read as the user. */
  consumerVersions: ConsumerVersions;
  /** Secrets that are gone while their history is kept, and their recreation. */
  deleted: DeletedSecrets;
  /** Requests to a Secret's owner to write it again from its source, as the user only. */
  ownerSync: OwnerSync;
}

/**
 * Wires the engines for one request. The identity mode decides which gateway each kind of call
 * uses (`engineGateways`): in hybrid mode the history archive and workload patches act as Krypton,
 * and the user's live writes are proven with a dry run first; otherwise everything is the user's.
 * A host with one identity only (Headlamp) passes the same gateway twice and
 * `impersonation`.
 *
 * @public
 */
export function createEngines(options: {
  mode: IdentityMode;
  gateways: RequestGateways;
  /** The cluster's configured name, as answers and audit events carry it. */
  cluster: string;
  settings: EngineSettings;
  /** Who acts, recorded as snapshot-by. */
  actor: VersionedSecretsOptions['actor'];
  /** For an approved change request's writes: its approvers, recorded as approved-by. */
  approvedBy?: readonly string[];
}): KryptonEngines {
  const { settings } = options;
  const gateways = engineGateways(options.mode, options.gateways);
  const live = new LiveSecrets({
    gateway: gateways.live,
    cluster: options.cluster,
    annotationPrefix: settings.annotationPrefix,
    managedOnly: settings.managedOnly,
    historyLimit: settings.historyLimit,
    proveWrites: gateways.proveLiveWrites,
    ownedSecrets: settings.ownedSecrets,
  });
  const history = new SecretHistory({
    gateway: gateways.archive,
    annotationPrefix: settings.annotationPrefix,
    historyLimit: settings.historyLimit,
  });
  const versioned = new VersionedSecrets({
    live,
    history,
    actor: options.actor,
    approvedBy: options.approvedBy,
  });
  const restart = new RestartConsumers({
    gateway: gateways.archive,
    annotationPrefix: settings.annotationPrefix,
  });
  return {
    live,
    versioned,
    restart,
    consumerVersions: new ConsumerVersions({
      live,
      history,
      restart,
      pods: gateways.live,
      annotationPrefix: settings.annotationPrefix,
    }),
    deleted: new DeletedSecrets({ live, history }),
    ownerSync: new OwnerSync({
      live,
      gateway: gateways.live,
      // In serviceAccount mode the "user" gateway is Krypton's own: no right of the user's stands
      // behind a patch of another tool's object.
      asUser: options.mode !== 'serviceAccount',
    }),
  };
}
