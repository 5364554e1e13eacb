import { SecretAction } from '../secretActions';
import {
  KryptonKeys,
  kryptonKeys,
  MANAGED_BY_VALUE,
  readAccessRules,
} from '../annotations';
import {
  AccessRules,
  AdoptSecretRequest,
  CreateSecretRequest,
  SecretDto,
  SecretListItem,
  SecretSummary,
  UpdateSecretRequest,
} from '../dto';
import { KryptonError, messages } from '../errors';
import { isManagedSecret } from '../secretTraits';
import { Parsed } from '../settings';
import { fromKubeError } from './errors';
import { OwnedEdit, OwnedOperation, admitOwnedEdit } from './ownedEdits';
import { OwnedSecretRules } from './secretOwner';
import {
  ListOptions,
  listLiveUids,
  listSecretItems,
  secretListSelector,
} from './secretListing';
import {
  SecretViewContext,
  VALUE_ACTIONS,
  isKryptonStorageSecret,
  secretDto,
  secretSummary,
  valuesShown,
} from './secretViews';
import {
  DeleteOutcome,
  KubeGateway,
  NativeSecret,
  Preconditions,
  SECRETS,
} from './types';
import {
  ReplacementSpec,
  WriteCheck,
  WriteProposal,
  buildReplacement,
  checkWrite,
  planUpdate,
  plannedCreate,
} from './writePlan';

/**
 * The gates of a request, in two parts so that the one that needs no live object can run beside
 * the live read. Both throw a KryptonError to refuse.
 *
 * @public
 */
export interface LiveGate {
  /**
   * Checks that need no live object (the Backstage permission policy). A decision that
   * depends on the object (a policy's conditions) comes back as a check of the live object.
   */
  permit(actions: SecretAction[]): Promise<LiveCheck>;
  /** Checks of the current live object (its access rules). */
  admit(live: NativeSecret, actions: SecretAction[]): void;
}

/**
 * The gate of a host with no trusted server of its own (Headlamp, the terminal): the user's
 * Kubernetes RBAC, which the API server applies to every request, is the only one. Krypton's
 * access-rule annotations are advisory there: anyone who could bypass them with kubectl could
 * bypass a check made in their own client too.
 *
 * @public
 */
export const RBAC_ONLY_GATE: LiveGate = {
  permit: async () => () => {},
  admit: () => {},
};

/**
 * A check of the live object that throws a refusal.
 *
 * @public
 */
export type LiveCheck = (live: NativeSecret) => void;

/** @public */
export interface LiveSecretsOptions {
  /** Gateway for reads and writes of live Secrets (the user's identity where configured). */
  gateway: KubeGateway;
  cluster: string;
  annotationPrefix: string;
  managedOnly: boolean;
  /**
   * The parsed KRYPTON_HISTORY_LIMIT. Data-changing writes are history writes (a snapshot goes in
   * front of each), so an invalid limit refuses them with 503; metadata-only edits still pass.
   */
  historyLimit: Parsed<number>;
  /**
   * Whether another identity than this gateway's acts for the request before the live write (the
   * history archive and workload patches in hybrid mode). Then the user's own live write is
   * proven first with a dry run, so that Krypton's identity never changes anything for a user who
   * could not make the write themselves.
   */
  proveWrites?: boolean;
  /**
   * krypton.ownedSecrets: the owners whose Secrets may be updated, restored, adopted and deleted,
   * each edit with the user's reason (every other owner's are refused), and how Argo CD tracks.
   */
  ownedSecrets?: OwnedSecretRules;
}

/**
 * What an adoption wrote, and for an owned Secret, whose it is and why the user adopted it.
 *
 * @public
 */
export interface AdoptOutcome {
  secret: NativeSecret;
  owned?: OwnedEdit;
}

const notFound = () => new KryptonError('not_found', messages.notFound);

/**
 * Krypton's rules for live Secrets: what is served, and how create, update and adopt build the
 * object they write. Every mutation checks the loaded resourceVersion first and writes with
 * UID/resourceVersion preconditions.
 *
 * @public
 */
export class LiveSecrets {
  readonly keys: KryptonKeys;
  private readonly view: SecretViewContext;

  constructor(private readonly options: LiveSecretsOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
    this.view = {
      keys: this.keys,
      cluster: options.cluster,
      annotationPrefix: options.annotationPrefix,
      ownedSecrets: options.ownedSecrets,
    };
  }

  /**
   * Refuses (409) an edit of a Secret that another tool owns, unless the installation allows its
   * owner's edits and the user gave a reason (admitOwnedEdit).
   */
  admitOwned(
    live: NativeSecret,
    operation: OwnedOperation,
    reason: string | undefined,
  ): OwnedEdit | undefined {
    return admitOwnedEdit(
      live.metadata,
      operation,
      reason,
      this.options.ownedSecrets ?? {},
    );
  }

  get cluster(): string {
    return this.options.cluster;
  }

  isManaged(secret: NativeSecret): boolean {
    return isManagedSecret(secret.metadata.labels, this.keys);
  }

  /** Krypton's snapshots and proposals are never live Secrets (isKryptonStorageSecret). */
  isStorageObject(secret: NativeSecret): boolean {
    return isKryptonStorageSecret(secret, this.keys);
  }

  accessRules(secret: NativeSecret): AccessRules {
    return readAccessRules(secret.metadata.annotations, this.keys);
  }

  toSummary(secret: NativeSecret): SecretSummary {
    return secretSummary(secret, this.view);
  }

  /** The answer with the values: only for a caller who may reveal them. */
  toDto(secret: NativeSecret): SecretDto {
    return secretDto(secret, this.view);
  }

  /** Runs one gateway call, turning Kubernetes failures into Krypton's fixed errors. */
  private async kube<T>(
    call: (gateway: KubeGateway) => Promise<T>,
  ): Promise<T> {
    try {
      return await call(this.options.gateway);
    } catch (err) {
      throw fromKubeError(err);
    }
  }

  /** Reads a live Secret that Krypton serves, or throws not_found. */
  async load(namespace: string, name: string): Promise<NativeSecret> {
    const secret = await this.loadAny(namespace, name);
    if (this.options.managedOnly && !this.isManaged(secret)) throw notFound();
    return secret;
  }

  /**
   * A live Secret's metadata only (no values), for gates and rechecks that need no values: the
   * same served-Secret rules as load.
   */
  async loadMetadata(namespace: string, name: string): Promise<NativeSecret> {
    const secret = await this.kube(g =>
      g.getMetadata(SECRETS, namespace, name),
    );
    if (this.isStorageObject(secret)) throw notFound();
    if (this.options.managedOnly && !this.isManaged(secret)) throw notFound();
    return secret;
  }

  /**
   * Proves, where Krypton's own identity is about to act first, that the user may make this live
   * replacement: a dry run with its UID and resourceVersion preconditions. A refusal is the user's
   * own 403 (or 409), with nothing changed.
   */
  async proveReplace(replacement: NativeSecret): Promise<void> {
    if (this.options.proveWrites) await this.dryRunReplace(replacement);
  }

  /** proveReplace for a delete of the live Secret. */
  async proveDelete(
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<void> {
    if (this.options.proveWrites)
      await this.dryRunDelete(namespace, name, preconditions);
  }

  /**
   * A dry run of the live replacement as this gateway's identity, whatever the mode: how a
   * change request proves that its requester may still make the change it asked for.
   */
  async dryRunReplace(replacement: NativeSecret): Promise<void> {
    const { namespace, name } = replacement.metadata;
    await this.kube(g =>
      g.dryRunReplace(SECRETS, namespace!, name!, replacement),
    );
  }

  /** dryRunReplace for a delete of the live Secret. */
  async dryRunDelete(
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<void> {
    await this.kube(g =>
      g.dryRunDelete(SECRETS, namespace, name, preconditions),
    );
  }

  /**
   * The gates of restarting a Secret's consumers: the spec's "same ... gates as updating the
   * Secret" and restart's own. Where Krypton's identity patches the workloads, the user's right to
   * update the Secret is proven first with a dry run of writing it back unchanged, which needs the
   * whole object; otherwise the gates read its metadata only.
   */
  async gateRestart(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<NativeSecret> {
    const live = await this.loadGated(
      namespace,
      name,
      ['update', 'restart'],
      gate,
      { metadataOnly: !this.options.proveWrites },
    );
    const { managedFields: _dropped, ...metadata } = live.metadata;
    await this.proveReplace({ ...live, metadata });
    return live;
  }

  private async loadAny(
    namespace: string,
    name: string,
  ): Promise<NativeSecret> {
    const secret = await this.kube(g => g.get(SECRETS, namespace, name));
    if (this.isStorageObject(secret)) throw notFound();
    return secret;
  }

  /**
   * Reads the live Secret and passes it through the gates, refusing in this order: the read (RBAC,
   * not found), the permission policy, the access rules of the object just read. The permission
   * check needs no live object, so it runs beside the read instead of after it.
   */
  async loadGated(
    namespace: string,
    name: string,
    actions: SecretAction[],
    gate: LiveGate,
    options: {
      managedOnly?: boolean;
      /**
       * Gate on the Secret's metadata alone (PartialObjectMetadata): its labels, rules, UID and
       * revision are all a gate needs, so routes that never use the values never read them.
       */
      metadataOnly?: boolean;
    } = {},
  ): Promise<NativeSecret> {
    const permitted = gate.permit(actions);
    // Observed below, after the read; this only keeps a refusal from counting as unhandled while
    // the read is still running.
    permitted.catch(() => undefined);
    let live: NativeSecret;
    if (options.managedOnly === false)
      live = await this.loadAny(namespace, name);
    else if (options.metadataOnly)
      live = await this.loadMetadata(namespace, name);
    else live = await this.load(namespace, name);
    (await permitted)(live);
    gate.admit(live, actions);
    return live;
  }

  /** A live Secret with its values, for a caller allowed to read and reveal it. */
  async get(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<NativeSecret> {
    const live = await this.loadGated(
      namespace,
      name,
      [...VALUE_ACTIONS],
      gate,
    );
    if (!valuesShown(live)) {
      throw new KryptonError('forbidden', messages.serviceAccountTokenValues);
    }
    return live;
  }

  /** secretListSelector under this deployment's keys and KRYPTON_MANAGED_ONLY. */
  listSelector(options: ListOptions = {}): string {
    return secretListSelector(this.keys, this.options.managedOnly, options);
  }

  /** listSecretItems of a namespace, as this caller's gateway reads it. */
  async listItems(
    namespace: string,
    visible: (secret: NativeSecret) => boolean,
    options: ListOptions = {},
  ): Promise<SecretListItem[]> {
    return listSecretItems(this.options.gateway, namespace, {
      context: this.view,
      labelSelector: this.listSelector(options),
      adoptable: options.adoptable,
      visible,
    });
  }

  /** Creates a managed Secret; `admit` may refuse the object as it would be sent. */
  async create(
    namespace: string,
    req: CreateSecretRequest,
    admit: (planned: NativeSecret) => void = () => undefined,
  ): Promise<NativeSecret> {
    const secret = plannedCreate(namespace, req, this.keys);
    admit(secret);
    return this.createPlanned(namespace, secret);
  }

  /** Creates a Secret that a plan built and the gates admitted. */
  async createPlanned(
    namespace: string,
    secret: NativeSecret,
  ): Promise<NativeSecret> {
    return this.kube(g => g.create(SECRETS, namespace, secret));
  }

  /** listLiveUids of a namespace (or of one name in it), as this caller's gateway lists it. */
  async liveUids(
    namespace: string,
    name?: string,
  ): Promise<Map<string, string>> {
    return listLiveUids(this.options.gateway, namespace, this.keys, name);
  }

  private planning() {
    return { keys: this.keys, historyLimit: this.options.historyLimit };
  }

  /** checkWrite under this deployment's keys and history limit. */
  checkWrite(live: NativeSecret, proposal: WriteProposal): WriteCheck {
    return checkWrite(live, proposal, this.planning());
  }

  /** buildReplacement under this deployment's keys. */
  buildReplacement(live: NativeSecret, spec: ReplacementSpec): NativeSecret {
    return buildReplacement(live, spec, this.keys);
  }

  /** planUpdate under this deployment's keys and history limit. */
  planUpdate(
    live: NativeSecret,
    req: UpdateSecretRequest,
  ): { replacement: NativeSecret; check: WriteCheck } {
    return planUpdate(live, req, this.planning());
  }

  /**
   * Replaces the live Secret with a planned replacement (UID and resourceVersion preconditions).
   * Data-changing replacements come only from VersionedSecrets, after history saved the state
   * they replace.
   */
  async write(
    namespace: string,
    name: string,
    replacement: NativeSecret,
  ): Promise<NativeSecret> {
    return this.kube(g => g.replace(SECRETS, namespace, name, replacement));
  }

  /** The conditional delete of the live Secret: gone, or still present (finalizers). */
  async remove(
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<DeleteOutcome<NativeSecret>> {
    return this.kube(g => g.delete(SECRETS, namespace, name, preconditions));
  }

  /** Marks an existing Secret as managed by Krypton, optionally with a description and rules. */
  async adopt(
    namespace: string,
    name: string,
    req: AdoptSecretRequest,
    gate: LiveGate,
    admitType: (type: string) => void = () => undefined,
  ): Promise<AdoptOutcome> {
    const live = await this.loadGated(
      namespace,
      name,
      ['update', 'manageAccess'],
      gate,
      { managedOnly: false },
    );
    admitType(live.type ?? 'Opaque');
    if (this.isManaged(live))
      throw new KryptonError('conflict', messages.alreadyManaged);
    const owned = this.admitOwned(live, 'adopt', req.ownedEditReason);
    // planUpdate refuses a stale revision and service-account tokens.
    const { replacement } = this.planUpdate(live, {
      resourceVersion: req.resourceVersion,
      description: req.description,
      access: req.access,
    });
    replacement.metadata.labels = {
      ...(replacement.metadata.labels ?? {}),
      [this.keys.managedBy]: MANAGED_BY_VALUE,
    };
    const secret = await this.kube(g =>
      g.replace(SECRETS, namespace, name, replacement),
    );
    return { secret, owned };
  }
}
