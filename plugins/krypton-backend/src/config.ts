import { Config } from '@backstage/config';
import { InputError } from '@backstage/errors';
import {
  ApprovalRule,
  parseApprovalRules,
  DEFAULT_ANNOTATION_PREFIX,
  IdentityMode,
  Parsed,
  parseHistoryLimit,
  parseManagedOnly,
  parseRestartEnabled,
  OwnedSecretRules,
  SECRET_OWNER_TOOLS,
  SecretOwnerTool,
  isLabelKey,
  tryNormalizeEntityRef,
  validateNamespace,
  validateSecretType,
  KUBE_REQUEST_DEADLINE_MS,
} from '@krypton/core';
import { isHeaderExact } from './kubernetes/headerValue';

export type { IdentityMode };

export interface ClusterConfig {
  name: string;
  url: string;
  serviceAccountToken?: string;
  caData?: string;
  caFile?: string;
  skipTLSVerify: boolean;
}

export interface KryptonBackendConfig {
  annotationPrefix: string;
  identity: IdentityMode;
  userTemplate: string;
  groupTemplate: string;
  extraGroups: string[];
  clusters: ClusterConfig[];
  /** Normalized entity refs (users or groups) that pass any Secret's access rules. */
  admins: string[];
  historyLimit: Parsed<number>;
  restartEnabled: boolean;
  managedOnly: boolean;
  /** Deadline of each Kubernetes request, in milliseconds. */
  requestTimeoutMs: number;
  /** serviceAccount mode only: where create and adopt may act, and on which Secret types. */
  serviceAccountMode: ServiceAccountModeLimits;
  /** Notifications to the owners of the catalog entities that link a changed Secret. */
  notifications: NotificationSettings;
  /** krypton.approval.rules: which Secrets' changes need approval, in order. */
  approvalRules: ApprovalRule[];
  /** Answers carry a Server-Timing header with the phases of each request. */
  serverTiming: boolean;
  /** How long one storage rewrite may run, in milliseconds. */
  storageRewriteTimeLimitMs: number;
  /** krypton.ownedSecrets: whose Secrets may be edited with a reason, and how Argo CD tracks. */
  ownedSecrets: OwnedSecretRules;
}

/** The operations whose success (or, for a restart, whose result) notifies owners. */
export type NotificationEvent =
  | 'update'
  | 'restore'
  | 'delete'
  | 'restart'
  | 'change-request';

export const NOTIFICATION_EVENTS: readonly NotificationEvent[] = [
  'update',
  'restore',
  'delete',
  'restart',
  'change-request',
];

export interface NotificationSettings {
  enabled: boolean;
  events: ReadonlySet<NotificationEvent>;
}

export interface ServiceAccountModeLimits {
  /** Namespaces where create and adopt are allowed; none unless configured. */
  namespaces: ReadonlySet<string>;
  /** Secret types that create and adopt accept. */
  secretTypes: ReadonlySet<string>;
}

/** The Secret types that serviceAccount mode creates and adopts unless configured otherwise. */
export const DEFAULT_SERVICE_ACCOUNT_SECRET_TYPES: readonly string[] = [
  'Opaque',
  'kubernetes.io/basic-auth',
  'kubernetes.io/ssh-auth',
  'kubernetes.io/tls',
  'kubernetes.io/dockerconfigjson',
];

/** The transport's default deadline of one Kubernetes request, as on every host of the engines. */
export const DEFAULT_REQUEST_TIMEOUT_MS = KUBE_REQUEST_DEADLINE_MS;
const MAX_REQUEST_TIMEOUT_MS = 600_000;

/** krypton.kubernetes.requestTimeoutMs: a whole number of milliseconds, 1 to 600,000. */
function readRequestTimeout(config: Config): number {
  const key = 'krypton.kubernetes.requestTimeoutMs';
  const value = config.getOptionalNumber(key);
  if (value === undefined) return DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_REQUEST_TIMEOUT_MS) {
    throw new InputError(
      `${key} must be a whole number of milliseconds from 1 to ${MAX_REQUEST_TIMEOUT_MS}`,
    );
  }
  return value;
}

/** krypton.storageRewrite.timeLimitMinutes: a whole number of minutes, 1 to 1440 (default 60). */
function readStorageRewriteTimeLimit(config: Config): number {
  const key = 'krypton.storageRewrite.timeLimitMinutes';
  const value = config.getOptionalNumber(key) ?? 60;
  if (!Number.isInteger(value) || value < 1 || value > 1440) {
    throw new InputError(
      `${key} must be a whole number of minutes from 1 to 1440`,
    );
  }
  return value * 60_000;
}

type Env = Record<string, string | undefined>;

/**
 * The spec's environment variables win over their app-config keys, and keep their exact
 * validation: an invalid history limit is carried as an error, never replaced by a default.
 */
function readSettings(config: Config, env: Env) {
  const limitFromConfig = config.getOptional('krypton.historyLimit');
  const historyLimit = parseHistoryLimit(
    env.KRYPTON_HISTORY_LIMIT ??
      (limitFromConfig === undefined ? undefined : String(limitFromConfig)),
  );
  const restartFromConfig = config.getOptionalBoolean(
    'krypton.restart.enabled',
  );
  const managedFromConfig = config.getOptionalBoolean('krypton.managedOnly');
  return {
    historyLimit,
    restartEnabled: parseRestartEnabled(
      env.KRYPTON_RESTART_ENABLED ??
        (restartFromConfig === undefined
          ? undefined
          : String(restartFromConfig)),
    ),
    managedOnly: parseManagedOnly(
      env.KRYPTON_MANAGED_ONLY ??
        (managedFromConfig === undefined
          ? undefined
          : String(managedFromConfig)),
    ),
  };
}

const IDENTITY_MODES: readonly IdentityMode[] = [
  'impersonation',
  'hybrid',
  'serviceAccount',
];

function readCluster(c: Config): ClusterConfig {
  const authProvider = c.getOptionalString('authProvider') ?? 'serviceAccount';
  if (authProvider !== 'serviceAccount') {
    throw new InputError(
      `Krypton cluster ${c.getString(
        'name',
      )}: authProvider ${authProvider} is not supported; use serviceAccount`,
    );
  }
  return {
    name: c.getString('name'),
    url: c.getString('url'),
    serviceAccountToken: c.getOptionalString('serviceAccountToken'),
    caData: c.getOptionalString('caData'),
    caFile: c.getOptionalString('caFile'),
    skipTLSVerify: c.getOptionalBoolean('skipTLSVerify') ?? false,
  };
}

/**
 * In serviceAccount mode Krypton's own identity creates and adopts, so nothing in Kubernetes stops
 * a holder of the create permission from writing into kube-system or minting a bootstrap token:
 * the operator names the namespaces and types instead.
 */
function readServiceAccountMode(config: Config): ServiceAccountModeLimits {
  const key = 'krypton.kubernetes.serviceAccountMode';
  const namespaces = config.getOptionalStringArray(`${key}.namespaces`) ?? [];
  for (const ns of namespaces) {
    try {
      validateNamespace(ns);
    } catch {
      throw new InputError(
        `${key}.namespaces: ${JSON.stringify(
          ns.slice(0, 100),
        )} is not a namespace name`,
      );
    }
  }
  const types =
    config.getOptionalStringArray(`${key}.secretTypes`) ??
    DEFAULT_SERVICE_ACCOUNT_SECRET_TYPES;
  for (const type of types) {
    try {
      validateSecretType(type);
    } catch {
      throw new InputError(
        `${key}.secretTypes: ${JSON.stringify(
          type.slice(0, 100),
        )} is not a Secret type`,
      );
    }
  }
  return { namespaces: new Set(namespaces), secretTypes: new Set(types) };
}

/** Extra groups travel in Impersonate-Group headers, which must carry them unchanged. */
function readExtraGroups(config: Config): string[] {
  const key = 'krypton.kubernetes.impersonation.extraGroups';
  const groups = config.getOptionalStringArray(key) ?? [];
  for (const group of groups) {
    if (!isHeaderExact(group)) {
      throw new InputError(
        `${key}: ${JSON.stringify(
          group.slice(0, 100),
        )} must be printable ASCII without blanks at either end`,
      );
    }
  }
  return groups;
}

const isNotificationEvent = (value: string): value is NotificationEvent =>
  (NOTIFICATION_EVENTS as readonly string[]).includes(value);

/**
 * krypton.notifications: off unless enabled, every event unless listed. An event name that is not
 * one of them is a start-up error, so a typo cannot silently turn a notification off.
 */
function readNotifications(config: Config): NotificationSettings {
  const key = 'krypton.notifications';
  const enabled = config.getOptionalBoolean(`${key}.enabled`) ?? false;
  const listed = config.getOptionalStringArray(`${key}.events`);
  const events = (listed ?? NOTIFICATION_EVENTS).map(event => {
    if (!isNotificationEvent(event)) {
      throw new InputError(
        `${key}.events: ${JSON.stringify(
          event.slice(0, 100),
        )} is not one of ${NOTIFICATION_EVENTS.join(', ')}`,
      );
    }
    return event;
  });
  return { enabled, events: new Set(events) };
}

const isOwnerTool = (value: string): value is SecretOwnerTool =>
  (SECRET_OWNER_TOOLS as readonly string[]).includes(value);

/**
 * krypton.ownedSecrets. allowEdits: none unless listed; a name that is not a tool Krypton
 * recognises is a start-up error, so a typo cannot leave edits refused that the operator meant to
 * allow. argoCdInstanceLabel: a label key, or a start-up error.
 */
function readOwnedSecrets(config: Config): OwnedSecretRules {
  const key = 'krypton.ownedSecrets';
  const label = config.getOptionalString(`${key}.argoCdInstanceLabel`);
  if (label !== undefined && !isLabelKey(label)) {
    throw new InputError(
      `${key}.argoCdInstanceLabel: ${JSON.stringify(
        label.slice(0, 100),
      )} is not a label key`,
    );
  }
  return {
    allowEdits: readAllowEdits(config, `${key}.allowEdits`),
    ...(label === undefined ? {} : { argoCdInstanceLabel: label }),
  };
}

function readAllowEdits(config: Config, key: string): SecretOwnerTool[] {
  return (config.getOptionalStringArray(key) ?? []).map(tool => {
    if (!isOwnerTool(tool)) {
      throw new InputError(
        `${key}: ${JSON.stringify(
          tool.slice(0, 100),
        )} is not one of ${SECRET_OWNER_TOOLS.join(', ')}`,
      );
    }
    return tool;
  });
}

/** krypton.admins, normalized like every other entity ref; a typo is a start-up error. */
function readAdmins(config: Config): string[] {
  return (config.getOptionalStringArray('krypton.admins') ?? []).map(ref => {
    const normal = tryNormalizeEntityRef(ref);
    if (!normal) {
      throw new InputError(
        `krypton.admins: ${JSON.stringify(
          ref.slice(0, 100),
        )} is not a user or group entity ref`,
      );
    }
    return normal;
  });
}

/**
 * krypton.approval.rules. An invalid rule stops the start: read leniently, a mistyped rule would
 * let changes through that its author meant to hold for approval.
 */
function readApprovalRules(config: Config): ApprovalRule[] {
  const parsed = parseApprovalRules(
    config.getOptional('krypton.approval.rules'),
  );
  if (!parsed.ok) throw new InputError(parsed.error);
  return parsed.value;
}

/**
 * Reads krypton.* and, when krypton.clusters is absent, the config-type cluster locators of the
 * Backstage Kubernetes plugin, so that one cluster block serves both plugins.
 */
export function readKryptonConfig(
  config: Config,
  env: Env = process.env,
): KryptonBackendConfig {
  const identity = (config.getOptionalString('krypton.kubernetes.identity') ??
    'impersonation') as IdentityMode;
  if (!IDENTITY_MODES.includes(identity)) {
    throw new InputError(
      `krypton.kubernetes.identity must be one of ${IDENTITY_MODES.join(', ')}`,
    );
  }
  let clusters = (config.getOptionalConfigArray('krypton.clusters') ?? []).map(
    readCluster,
  );
  if (clusters.length === 0) {
    for (const locator of config.getOptionalConfigArray(
      'kubernetes.clusterLocatorMethods',
    ) ?? []) {
      if (locator.getString('type') === 'config') {
        clusters = clusters.concat(
          (locator.getOptionalConfigArray('clusters') ?? []).map(readCluster),
        );
      }
    }
  }
  const imp = 'krypton.kubernetes.impersonation';
  return {
    annotationPrefix:
      config.getOptionalString('krypton.annotationPrefix') ??
      DEFAULT_ANNOTATION_PREFIX,
    identity,
    userTemplate: config.getOptionalString(`${imp}.userTemplate`) ?? '{{ref}}',
    groupTemplate:
      config.getOptionalString(`${imp}.groupTemplate`) ?? '{{ref}}',
    extraGroups: readExtraGroups(config),
    clusters,
    admins: readAdmins(config),
    requestTimeoutMs: readRequestTimeout(config),
    serviceAccountMode: readServiceAccountMode(config),
    notifications: readNotifications(config),
    approvalRules: readApprovalRules(config),
    serverTiming:
      config.getOptionalBoolean('krypton.diagnostics.serverTiming') ?? false,
    storageRewriteTimeLimitMs: readStorageRewriteTimeLimit(config),
    ownedSecrets: readOwnedSecrets(config),
    ...readSettings(config, env),
  };
}
