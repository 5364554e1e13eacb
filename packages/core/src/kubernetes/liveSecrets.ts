import { SecretAction } from '../access';
import {
  MANAGED_BY_VALUE,
  kryptonKeys,
  KryptonKeys,
  parseVersionCounter,
  readAccessRules,
  writeAccessRules,
} from '../annotations';
import {
  AccessRules,
  AdoptSecretRequest,
  CreateSecretRequest,
  SecretDto,
  SecretListItem,
  SecretMetadataView,
  SecretSummary,
  UpdateSecretRequest,
} from '../dto';
import { emptyMap, losslessText, textToBase64 } from '../encoding';
import { KryptonError, messages } from '../errors';
import { SERVICE_ACCOUNT_TOKEN_TYPE, isManagedSecret } from '../secretTraits';
import { Parsed } from '../settings';
import { exceedsDecodedBound, exceedsEstimate } from '../size';
import { isSnapshotName } from '../validation';
import { fromKubeError } from './errors';
import {
  INVENTORY_BUDGET,
  IncompleteListError,
  InventoryBudget,
  readInventory,
} from './inventory';
import {
  AnnotationAudience,
  LAST_APPLIED_ANNOTATION,
  lastChange,
  shownAnnotations,
  shownLabels,
  shownOwnerReferences,
} from './secretFacts';
import {
  DeleteOutcome,
  KubeApiError,
  KubeGateway,
  NativeSecret,
  Page,
  PageRequest,
  Preconditions,
  SECRETS,
  TableRow,
} from './types';

export { SERVICE_ACCOUNT_TOKEN_TYPE };

/** The API server's columns of a Secret Table that a list reads: the type and the key count. */
const SECRET_COLUMNS = ['Type', 'Data'] as const;

/**
 * The budget of a Secret list. Rows of the Table carry metadata only, so pages can be as large as
 * kubectl's (500) within the same object, byte and page limits as every other list.
 */
const SECRET_LIST_BUDGET: InventoryBudget = {
  ...INVENTORY_BUDGET,
  pageSize: 500,
};

/**
 * A Secret of a Table row: its metadata and the type that the Type cell names, never data. A cell
 * of the wrong kind makes the page unusable, like any other malformed answer.
 */
interface ListedSecret {
  secret: NativeSecret;
  keyCount: number;
}

function listedSecret(row: TableRow): ListedSecret {
  const { Type: type, Data: keyCount } = row.cells;
  if (
    typeof type !== 'string' ||
    typeof keyCount !== 'number' ||
    !Number.isSafeInteger(keyCount) ||
    keyCount < 0
  ) {
    throw new KubeApiError(0, 'MalformedResponse');
  }
  // The Type column prints an empty type as is; the API server defaults it to Opaque on write.
  return {
    secret: { metadata: row.object.metadata, type: type || 'Opaque' },
    keyCount,
  };
}

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
 * A check of the live object that throws a refusal.
 *
 * @public
 */
export type LiveCheck = (live: NativeSecret) => void;

/**
 * What a Secret list asks for beyond the deployment's settings.
 *
 * @public
 */
export interface ListOptions {
  /** A validated Kubernetes label selector that narrows the list. */
  labelSelector?: string;
  /** Unmanaged Secrets only, to pick one to adopt. */
  adoptable?: boolean;
}

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
}

/**
 * A proposed write of a live Secret's data, as every data-changing route describes it.
 *
 * @public
 */
export interface WriteProposal {
  /** The metadata.resourceVersion that the client loaded. */
  resourceVersion: string;
  /** The complete native data map (base64 values) that the write would leave. */
  data: Record<string, string>;
  type?: string;
  immutable?: boolean;
  /**
   * Text and binary values of a write built from client input, measured with the conservative
   * estimate; without it (raw restores), Kubernetes' decoded-size bound applies.
   */
  estimate?: { text: Record<string, string>; binary: Record<string, string> };
}

/**
 * What checkWrite found: whether the data changes, and the app counter the write must carry.
 *
 * @public
 */
export interface WriteCheck {
  dataChanged: boolean;
  /** The counter after the write: the current one for metadata-only writes. */
  version: number;
  /** The counter of the state being replaced, which history saves as that version. */
  replacedVersion: number;
}

/**
 * The parts of a live Secret that one write sets.
 *
 * @public
 */
export interface ReplacementSpec {
  data: Record<string, string>;
  check: WriteCheck;
  immutable?: boolean;
  /** The empty string removes the description. */
  description?: string;
  access?: Partial<AccessRules>;
}

/**
 * Splits native data into lossless text and original base64, in prototype-less maps.
 *
 * @public
 */
export function splitData(native: Record<string, string> | undefined): {
  data: Record<string, string>;
  binaryData: Record<string, string>;
} {
  const data = emptyMap<string>();
  const binaryData = emptyMap<string>();
  for (const key of Object.keys(native ?? {})) {
    const value = native![key];
    const text = losslessText(value);
    if (text === undefined) binaryData[key] = value;
    else data[key] = text;
  }
  return { data, binaryData };
}

function sameData(
  a: Record<string, string> | undefined,
  b: Record<string, string>,
): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  return ak.every(
    k => Object.prototype.hasOwnProperty.call(b, k) && a![k] === b[k],
  );
}

const notFound = () => new KryptonError('not_found', messages.notFound);

/**
 * The actions behind every answer that carries a Secret's values.
 *
 * @public
 */
export const VALUE_ACTIONS: readonly SecretAction[] = ['read', 'reveal'];

/**
 * Whether Krypton ever shows this Secret's values. A service-account token is a credential of the
 * cluster itself: whoever may otherwise read the Secret through Krypton never gets its values.
 *
 * @public
 */
export function valuesShown(secret: NativeSecret): boolean {
  return (secret.type ?? 'Opaque') !== SERVICE_ACCOUNT_TOKEN_TYPE;
}

/**
 * Krypton's rules for live Secrets: what is served, and how create, update and adopt build the
 * object they write. Every mutation checks the loaded resourceVersion first and writes with
 * UID/resourceVersion preconditions.
 *
 * @public
 */
export class LiveSecrets {
  readonly keys: KryptonKeys;

  constructor(private readonly options: LiveSecretsOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
  }

  get cluster(): string {
    return this.options.cluster;
  }

  isManaged(secret: NativeSecret): boolean {
    return isManagedSecret(secret.metadata.labels, this.keys);
  }

  /** History snapshots are never live Secrets, whatever their name looks like. */
  isSnapshot(secret: NativeSecret): boolean {
    return (
      isSnapshotName(secret.metadata.name ?? '') ||
      secret.metadata.labels?.[this.keys.kind] === 'history'
    );
  }

  accessRules(secret: NativeSecret): AccessRules {
    return readAccessRules(secret.metadata.annotations, this.keys);
  }

  toSummary(secret: NativeSecret): SecretSummary {
    return this.summarize(secret, splitData(secret.data).binaryData, 'summary');
  }

  /** The answer with the values: only for a caller who may reveal them. */
  toDto(secret: NativeSecret): SecretDto {
    const split = splitData(secret.data);
    return { ...this.summarize(secret, split.binaryData, 'values'), ...split };
  }

  private summarize(
    secret: NativeSecret,
    binaryData: Record<string, string>,
    audience: AnnotationAudience,
  ): SecretSummary {
    return {
      ...this.metadataView(secret, audience),
      immutable: secret.immutable === true,
      keys: Object.keys(secret.data ?? {}).sort(),
      binaryKeys: Object.keys(binaryData).sort(),
    };
  }

  /**
   * What a Secret's metadata and type say, for summaries and list items alike. The audience picks
   * the annotations: a reader who may not reveal the values gets fewer (isShownAnnotation).
   */
  private metadataView(
    secret: NativeSecret,
    audience: AnnotationAudience,
  ): SecretMetadataView {
    const counter = parseVersionCounter(
      secret.metadata.annotations?.[this.keys.version],
    );
    const view: SecretMetadataView = {
      cluster: this.options.cluster,
      namespace: secret.metadata.namespace ?? '',
      name: secret.metadata.name ?? '',
      uid: secret.metadata.uid ?? '',
      resourceVersion: secret.metadata.resourceVersion ?? '',
      type: secret.type ?? 'Opaque',
      managed: this.isManaged(secret),
      version: counter.ok ? counter.version : null,
      access: this.accessRules(secret),
    };
    const description = secret.metadata.annotations?.[this.keys.description];
    if (description !== undefined) view.description = description;
    if (secret.metadata.creationTimestamp) {
      view.creationTimestamp = secret.metadata.creationTimestamp;
    }
    if (secret.metadata.deletionTimestamp) {
      view.deletionTimestamp = secret.metadata.deletionTimestamp;
    }
    view.labels = shownLabels(secret.metadata.labels);
    const annotations = shownAnnotations(
      secret.metadata.annotations,
      this.options.annotationPrefix,
      audience,
    );
    view.annotations = annotations.annotations;
    view.withheldAnnotations = annotations.withheld;
    view.ownerReferences = shownOwnerReferences(secret.metadata);
    const changed = lastChange(secret.metadata);
    if (changed) view.lastChange = changed;
    return view;
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
    if (this.isSnapshot(secret)) throw notFound();
    if (this.options.managedOnly && !this.isManaged(secret)) throw notFound();
    return secret;
  }

  /**
   * Proves, where Krypton's own identity is about to act first, that the user may make this live
   * replacement: a dry run with its UID and resourceVersion preconditions. A refusal is the user's
   * own 403 (or 409), with nothing changed.
   */
  async proveReplace(replacement: NativeSecret): Promise<void> {
    if (!this.options.proveWrites) return;
    const { namespace, name } = replacement.metadata;
    await this.kube(g =>
      g.dryRunReplace(SECRETS, namespace!, name!, replacement),
    );
  }

  /** proveReplace for a delete of the live Secret. */
  async proveDelete(
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<void> {
    if (!this.options.proveWrites) return;
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
    if (this.isSnapshot(secret)) throw notFound();
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

  /**
   * The label selector of a Secret list: never history; only managed Secrets if so set, or only
   * unmanaged ones for the adopt picker; narrowed by the caller's own selector.
   */
  listSelector(options: ListOptions = {}): string {
    const terms = [`${this.keys.kind}!=history`];
    if (options.adoptable) terms.unshift(`!${this.keys.managedBy}`);
    else if (this.options.managedOnly)
      terms.unshift(`${this.keys.managedBy}=${MANAGED_BY_VALUE}`);
    if (options.labelSelector) terms.push(options.labelSelector);
    return terms.join(',');
  }

  /**
   * Every served Secret of a namespace that `visible` admits, sorted by name. The list is read as
   * the API server's Table of Secrets with each row's metadata: no value is ever read, and the
   * Secret handed to `visible` has metadata and type only. A namespace over the inventory budget,
   * or a table that does not have the expected columns and objects, is refused, never listed in
   * part.
   */
  async listItems(
    namespace: string,
    visible: (secret: NativeSecret) => boolean,
    options: ListOptions = {},
  ): Promise<SecretListItem[]> {
    const out: SecretListItem[] = [];
    const fetchPage = async (
      request: PageRequest,
    ): Promise<Page<ListedSecret>> => {
      const page = await this.options.gateway.listTable(
        SECRETS,
        namespace,
        request,
        SECRET_COLUMNS,
      );
      return { ...page, items: page.items.map(listedSecret) };
    };
    try {
      for await (const page of readInventory(fetchPage, {
        labelSelector: this.listSelector(options),
        budget: SECRET_LIST_BUDGET,
      })) {
        for (const { secret, keyCount } of page) {
          if (this.isSnapshot(secret) || !visible(secret)) continue;
          // Service-account tokens can never be adopted, so the picker does not offer them.
          if (
            options.adoptable &&
            (secret.type ?? 'Opaque') === SERVICE_ACCOUNT_TOKEN_TYPE
          )
            continue;
          out.push({ ...this.metadataView(secret, 'summary'), keyCount });
        }
      }
    } catch (err) {
      if (err instanceof IncompleteListError) {
        throw err.cause === 'budget'
          ? new KryptonError('unavailable', messages.listTooLarge)
          : new KryptonError('unavailable', messages.unavailable);
      }
      throw fromKubeError(err);
    }
    return out.sort((x, y) => x.name.localeCompare(y.name));
  }

  /** A live Secret's metadata, for a caller allowed to read it: no values. */
  async summary(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<SecretSummary> {
    return this.toSummary(
      await this.loadGated(namespace, name, ['read'], gate),
    );
  }

  /** Creates a managed Secret; `admit` may refuse the object as it would be sent. */
  async create(
    namespace: string,
    req: CreateSecretRequest,
    admit: (planned: NativeSecret) => void = () => undefined,
  ): Promise<NativeSecret> {
    const type = req.type ?? 'Opaque';
    if (type === SERVICE_ACCOUNT_TOKEN_TYPE) {
      throw new KryptonError('unprocessable', messages.serviceAccountToken);
    }
    const text = req.data ?? emptyMap<string>();
    const binary = req.binaryData ?? emptyMap<string>();
    rejectOverlap(text, binary);
    if (exceedsEstimate(text, binary))
      throw new KryptonError('too_large', messages.tooLarge);

    const data = emptyMap<string>();
    for (const key of Object.keys(binary)) data[key] = binary[key];
    for (const key of Object.keys(text)) data[key] = textToBase64(text[key]);
    const annotations: Record<string, string> = { [this.keys.version]: '1' };
    if (req.description !== undefined)
      annotations[this.keys.description] = req.description;
    writeAccessRules(annotations, completeRules(req.access), this.keys);
    const secret: NativeSecret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: req.name,
        namespace,
        labels: { [this.keys.managedBy]: MANAGED_BY_VALUE },
        annotations,
      },
      type,
      data,
    };
    if (req.immutable !== undefined) secret.immutable = req.immutable;
    admit(secret);
    return this.kube(g => g.create(SECRETS, namespace, secret));
  }

  /**
   * May this live Secret take the proposed write? Checks, in order: the loaded revision, the
   * native type (service-account tokens, type changes), immutability, size, the app counter and
   * the history limit. Restore runs this before it saves the current state; update runs it
   * before it builds the replacement.
   */
  checkWrite(live: NativeSecret, proposal: WriteProposal): WriteCheck {
    if (live.metadata.resourceVersion !== proposal.resourceVersion) {
      throw new KryptonError('conflict', messages.staleRevision);
    }
    const liveType = live.type ?? 'Opaque';
    if (liveType === SERVICE_ACCOUNT_TOKEN_TYPE) {
      throw new KryptonError('unprocessable', messages.serviceAccountToken);
    }
    if (proposal.type !== undefined && proposal.type !== liveType) {
      throw new KryptonError('unprocessable', messages.typeChange);
    }
    if (live.immutable === true && proposal.immutable === false) {
      throw new KryptonError(
        'unprocessable',
        'An immutable Secret cannot be made mutable.',
      );
    }
    const dataChanged = !sameData(live.data, proposal.data);
    if (dataChanged && live.immutable === true) {
      throw new KryptonError('unprocessable', messages.immutableData);
    }
    const tooLarge =
      dataChanged && proposal.estimate
        ? exceedsEstimate(proposal.estimate.text, proposal.estimate.binary)
        : exceedsDecodedBound(proposal.data);
    if (tooLarge) throw new KryptonError('too_large', messages.tooLarge);
    const counter = parseVersionCounter(
      live.metadata.annotations?.[this.keys.version],
    );
    if (!dataChanged) {
      const current = counter.ok ? counter.version : 0;
      return { dataChanged, version: current, replacedVersion: current };
    }
    if (!counter.ok)
      throw new KryptonError('conflict', messages.invalidCounter);
    const limit = this.options.historyLimit;
    if (!limit.ok) throw new KryptonError('unavailable', limit.error);
    return {
      dataChanged,
      version: counter.version + 1,
      replacedVersion: counter.version,
    };
  }

  /**
   * The object that replaces a live Secret: its metadata (UID and resourceVersion as
   * preconditions, owner references, finalizers, labels) with the new data, counter, description
   * and rules. Managed fields are dropped, and so is kubectl's last-applied copy on data changes.
   */
  buildReplacement(live: NativeSecret, spec: ReplacementSpec): NativeSecret {
    const annotations: Record<string, string> = {
      ...(live.metadata.annotations ?? {}),
    };
    if (spec.check.dataChanged) {
      annotations[this.keys.version] = String(spec.check.version);
      delete annotations[LAST_APPLIED_ANNOTATION];
    }
    if (spec.description !== undefined) {
      if (spec.description === '') delete annotations[this.keys.description];
      else annotations[this.keys.description] = spec.description;
    }
    if (spec.access !== undefined) {
      const rules = { ...this.accessRules(live), ...spec.access };
      writeAccessRules(annotations, rules, this.keys);
    }
    const { managedFields: _dropped, ...metadata } = live.metadata;
    const replacement: NativeSecret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { ...metadata, annotations },
      type: live.type ?? 'Opaque',
      data: spec.data,
    };
    const immutable = spec.immutable ?? live.immutable;
    if (immutable !== undefined) replacement.immutable = immutable;
    return replacement;
  }

  /** Checks an update request against the live Secret and builds its replacement. */
  planUpdate(
    live: NativeSecret,
    req: UpdateSecretRequest,
  ): { replacement: NativeSecret; check: WriteCheck } {
    const merged = mergeData(live.data ?? {}, req);
    const check = this.checkWrite(live, {
      resourceVersion: req.resourceVersion,
      data: merged.data,
      type: req.type,
      immutable: req.immutable,
      estimate: merged.estimate,
    });
    const replacement = this.buildReplacement(live, {
      data: merged.data,
      check,
      immutable: req.immutable,
      description: req.description,
      access: req.access,
    });
    return { replacement, check };
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
  ): Promise<NativeSecret> {
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
    return this.kube(g => g.replace(SECRETS, namespace, name, replacement));
  }
}

/**
 * The native data map that an update request leaves. Without data and binaryData it is the live
 * map, byte for byte. With data, text values are replaced; binary values are kept unless
 * binaryData names the complete binary set. Unchanged text keeps its original bytes.
 */
function mergeData(
  liveData: Record<string, string>,
  req: UpdateSecretRequest,
): { data: Record<string, string>; estimate?: WriteProposal['estimate'] } {
  const data = emptyMap<string>();
  if (req.data === undefined && req.binaryData === undefined) {
    for (const key of Object.keys(liveData)) data[key] = liveData[key];
    return { data };
  }
  const current = splitData(liveData);
  const text = copyMap(req.data);
  const binary = copyMap(req.binaryData);
  rejectOverlap(text, binary);
  // Binary values survive a text-only edit: a client that round-trips only the text subset of a
  // DTO must not drop them.
  if (req.binaryData === undefined) {
    for (const key of Object.keys(current.binaryData)) {
      if (!(key in text)) binary[key] = current.binaryData[key];
    }
  }
  if (req.data === undefined) {
    for (const key of Object.keys(current.data)) {
      if (!(key in binary)) text[key] = current.data[key];
    }
  }
  for (const key of Object.keys(binary)) data[key] = binary[key];
  for (const key of Object.keys(text)) {
    data[key] =
      current.data[key] === text[key] ? liveData[key] : textToBase64(text[key]);
  }
  return { data, estimate: { text, binary } };
}

function copyMap(map: Record<string, string> | undefined) {
  const out = emptyMap<string>();
  for (const key of Object.keys(map ?? {})) out[key] = map![key];
  return out;
}

function completeRules(partial: Partial<AccessRules> | undefined): AccessRules {
  return {
    owners: partial?.owners ?? [],
    editors: partial?.editors ?? [],
    viewers: partial?.viewers ?? [],
  };
}

function rejectOverlap(
  text: Record<string, string>,
  binary: Record<string, string>,
) {
  for (const key of Object.keys(binary)) {
    if (key in text) {
      throw new KryptonError(
        'invalid_request',
        `Key "${key}" appears in both data and binaryData.`,
      );
    }
  }
}

/**
 * Data edits need update; description and access-rule edits need manageAccess, and so does making
 * a Secret immutable: a one-way door after which it can never be rotated or restored again. That
 * last one needs the live object, so it is known only once it has been read.
 *
 * @public
 */
export function requiredActions(
  req: UpdateSecretRequest,
  live?: NativeSecret,
): SecretAction[] {
  const actions: SecretAction[] = [];
  if (
    req.data !== undefined ||
    req.binaryData !== undefined ||
    req.immutable !== undefined
  ) {
    actions.push('update');
  }
  const closes =
    req.immutable === true && live !== undefined && live.immutable !== true;
  if (req.description !== undefined || req.access !== undefined || closes)
    actions.push('manageAccess');
  return actions.length > 0 ? actions : ['update'];
}
