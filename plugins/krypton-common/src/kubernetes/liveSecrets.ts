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
  SecretSummary,
  UpdateSecretRequest,
} from '../dto';
import { emptyMap, losslessText, textToBase64 } from '../encoding';
import { KryptonError, messages } from '../errors';
import { Parsed } from '../settings';
import { exceedsDecodedBound, exceedsEstimate } from '../size';
import { isSnapshotName } from '../validation';
import { fromKubeError } from './errors';
import { NativeSecret, SecretGateway } from './types';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';

/**
 * Gates one action on the current live object, before anything else happens. It throws a
 * KryptonError to refuse.
 */
export type AuthorizeLive = (
  live: NativeSecret,
  actions: SecretAction[],
) => Promise<void>;

export interface LiveSecretsOptions {
  /** Gateway for reads and writes of live Secrets (the user's identity where configured). */
  gateway: SecretGateway;
  cluster: string;
  annotationPrefix: string;
  managedOnly: boolean;
  /**
   * The parsed KRYPTON_HISTORY_LIMIT. Data-changing writes are history writes (a snapshot goes in
   * front of each), so an invalid limit refuses them with 503; metadata-only edits still pass.
   */
  historyLimit?: Parsed<number>;
}

/** Splits native data into lossless text and original base64, in prototype-less maps. */
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
 * Krypton's rules for live Secrets: what is served, and how create, update and adopt build the
 * object they write. Every mutation checks the loaded resourceVersion first and writes with
 * UID/resourceVersion preconditions.
 */
export class LiveSecrets {
  readonly keys: KryptonKeys;

  constructor(private readonly options: LiveSecretsOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
  }

  isManaged(secret: NativeSecret): boolean {
    return secret.metadata.labels?.[this.keys.managedBy] === MANAGED_BY_VALUE;
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
    return this.summarize(secret, splitData(secret.data).binaryData);
  }

  toDto(secret: NativeSecret): SecretDto {
    const split = splitData(secret.data);
    return { ...this.summarize(secret, split.binaryData), ...split };
  }

  private summarize(
    secret: NativeSecret,
    binaryData: Record<string, string>,
  ): SecretSummary {
    const counter = parseVersionCounter(
      secret.metadata.annotations?.[this.keys.version],
    );
    const summary: SecretSummary = {
      cluster: this.options.cluster,
      namespace: secret.metadata.namespace ?? '',
      name: secret.metadata.name ?? '',
      uid: secret.metadata.uid ?? '',
      resourceVersion: secret.metadata.resourceVersion ?? '',
      type: secret.type ?? 'Opaque',
      immutable: secret.immutable === true,
      managed: this.isManaged(secret),
      version: counter.ok ? counter.version : null,
      access: this.accessRules(secret),
      keys: Object.keys(secret.data ?? {}).sort(),
      binaryKeys: Object.keys(binaryData).sort(),
    };
    const description = secret.metadata.annotations?.[this.keys.description];
    if (description !== undefined) summary.description = description;
    if (secret.metadata.creationTimestamp) {
      summary.creationTimestamp = secret.metadata.creationTimestamp;
    }
    if (secret.metadata.deletionTimestamp) {
      summary.deletionTimestamp = secret.metadata.deletionTimestamp;
    }
    return summary;
  }

  /** Runs one gateway call, turning Kubernetes failures into Krypton's fixed errors. */
  private async kube<T>(
    call: (gateway: SecretGateway) => Promise<T>,
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

  private async loadAny(
    namespace: string,
    name: string,
  ): Promise<NativeSecret> {
    const secret = await this.kube(g => g.getSecret(namespace, name));
    if (this.isSnapshot(secret)) throw notFound();
    return secret;
  }

  async get(
    namespace: string,
    name: string,
    authorize: AuthorizeLive,
  ): Promise<NativeSecret> {
    const live = await this.load(namespace, name);
    await authorize(live, ['read', 'reveal']);
    return live;
  }

  /** Every served Secret of a namespace, following continuation tokens to the end. */
  async list(namespace: string): Promise<NativeSecret[]> {
    const out: NativeSecret[] = [];
    const labelSelector = this.options.managedOnly
      ? `${this.keys.managedBy}=${MANAGED_BY_VALUE}`
      : undefined;
    let continueToken: string | undefined;
    const seen = new Set<string>();
    do {
      const options = { labelSelector, limit: 500, continueToken };
      const page = await this.kube(g => g.listSecrets(namespace, options));
      out.push(...page.items.filter(s => !this.isSnapshot(s)));
      continueToken = page.continueToken;
      if (continueToken !== undefined) {
        if (seen.has(continueToken))
          throw new KryptonError('unavailable', messages.unavailable);
        seen.add(continueToken);
      }
    } while (continueToken);
    return out.sort((a, b) =>
      (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
    );
  }

  async create(
    namespace: string,
    req: CreateSecretRequest,
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
    return this.kube(g => g.createSecret(namespace, secret));
  }

  /** Builds the replacement for an update; exported for the history engine to reuse. */
  planUpdate(
    live: NativeSecret,
    req: UpdateSecretRequest,
  ): {
    replacement: NativeSecret;
    dataChanged: boolean;
  } {
    if (live.metadata.resourceVersion !== req.resourceVersion) {
      throw new KryptonError('conflict', messages.staleRevision);
    }
    const liveType = live.type ?? 'Opaque';
    if (liveType === SERVICE_ACCOUNT_TOKEN_TYPE) {
      throw new KryptonError('unprocessable', messages.serviceAccountToken);
    }
    if (req.type !== undefined && req.type !== liveType) {
      throw new KryptonError('unprocessable', messages.typeChange);
    }
    if (live.immutable === true && req.immutable === false) {
      throw new KryptonError(
        'unprocessable',
        'An immutable Secret cannot be made mutable.',
      );
    }

    const liveData = live.data ?? {};
    let data: Record<string, string>;
    let text = emptyMap<string>();
    let binary = emptyMap<string>();
    if (req.data === undefined && req.binaryData === undefined) {
      data = emptyMap<string>();
      for (const key of Object.keys(liveData)) data[key] = liveData[key];
    } else {
      const current = splitData(liveData);
      text = req.data ?? emptyMap<string>();
      binary = req.binaryData ?? emptyMap<string>();
      rejectOverlap(text, binary);
      data = emptyMap<string>();
      // Binary values survive a text-only edit: a client that round-trips only the text subset
      // of a DTO must not drop them.
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
        // Unchanged text keeps its original bytes rather than a re-encoding.
        data[key] =
          current.data[key] === text[key]
            ? liveData[key]
            : textToBase64(text[key]);
      }
    }
    const dataChanged = !sameData(liveData, data);
    if (dataChanged && live.immutable === true) {
      throw new KryptonError('unprocessable', messages.immutableData);
    }
    if (
      dataChanged ? exceedsEstimate(text, binary) : exceedsDecodedBound(data)
    ) {
      throw new KryptonError('too_large', messages.tooLarge);
    }

    const annotations: Record<string, string> = {
      ...(live.metadata.annotations ?? {}),
    };
    if (dataChanged) {
      const counter = parseVersionCounter(annotations[this.keys.version]);
      if (!counter.ok)
        throw new KryptonError('conflict', messages.invalidCounter);
      annotations[this.keys.version] = String(counter.version + 1);
    }
    if (req.description !== undefined) {
      if (req.description === '') delete annotations[this.keys.description];
      else annotations[this.keys.description] = req.description;
    }
    if (req.access !== undefined) {
      const rules = { ...this.accessRules(live), ...req.access };
      writeAccessRules(annotations, rules, this.keys);
    }
    const { managedFields: _dropped, ...metadata } = live.metadata;
    const replacement: NativeSecret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { ...metadata, annotations },
      type: liveType,
      data,
    };
    const immutable = req.immutable ?? live.immutable;
    if (immutable !== undefined) replacement.immutable = immutable;
    return { replacement, dataChanged };
  }

  async update(
    namespace: string,
    name: string,
    req: UpdateSecretRequest,
    authorize: AuthorizeLive,
  ): Promise<{ secret: NativeSecret; dataChanged: boolean }> {
    const live = await this.load(namespace, name);
    await authorize(live, requiredActions(req));
    const { replacement, dataChanged } = this.planUpdate(live, req);
    const limit = this.options.historyLimit;
    if (dataChanged && limit && !limit.ok) {
      throw new KryptonError('unavailable', limit.error);
    }
    const secret = await this.kube(g =>
      g.replaceSecret(namespace, name, replacement),
    );
    return { secret, dataChanged };
  }

  /** Marks an existing Secret as managed by Krypton, optionally with a description and rules. */
  async adopt(
    namespace: string,
    name: string,
    req: AdoptSecretRequest,
    authorize: AuthorizeLive,
  ): Promise<NativeSecret> {
    const live = await this.loadAny(namespace, name);
    await authorize(live, ['update', 'manageAccess']);
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
    return this.kube(g => g.replaceSecret(namespace, name, replacement));
  }
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

/** Data edits need update; description and access-rule edits need manageAccess. */
export function requiredActions(req: UpdateSecretRequest): SecretAction[] {
  const actions: SecretAction[] = [];
  if (
    req.data !== undefined ||
    req.binaryData !== undefined ||
    req.immutable !== undefined
  ) {
    actions.push('update');
  }
  if (req.description !== undefined || req.access !== undefined)
    actions.push('manageAccess');
  return actions.length > 0 ? actions : ['update'];
}
