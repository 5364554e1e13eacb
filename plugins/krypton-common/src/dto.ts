/** Who may do what with one Secret, as Backstage entity refs (user:default/alice, group:default/team-a). */
export interface AccessRules {
  owners: string[];
  editors: string[];
  viewers: string[];
}

/** Metadata of a live Secret, as lists show it: no values. */
export interface SecretSummary {
  cluster: string;
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  type: string;
  immutable: boolean;
  /** Whether Krypton created or adopted the Secret. */
  managed: boolean;
  /**
   * The app version counter; a Secret without one (or with the old 0) is logically version 1.
   * Null when the counter is malformed or exhausted: an operator must review it before edits.
   */
  version: number | null;
  description?: string;
  access: AccessRules;
  /** Every key, text and binary. */
  keys: string[];
  /** Keys whose values are not lossless UTF-8 text. */
  binaryKeys: string[];
  creationTimestamp?: string;
  /** Set while Kubernetes is deleting the Secret (for example, finalizers are pending). */
  deletionTimestamp?: string;
}

/** A live Secret with its values. */
export interface SecretDto extends SecretSummary {
  /** Values whose bytes round-trip exactly as UTF-8 text. */
  data: Record<string, string>;
  /** Every other value, as the original base64. */
  binaryData: Record<string, string>;
}

export interface SecretList {
  items: SecretSummary[];
}

/** The writable fields shared by create and update. */
export interface SecretFields {
  type?: string;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
  description?: string;
  access?: Partial<AccessRules>;
}

/** POST .../secrets. The type defaults to Opaque. */
export interface CreateSecretRequest extends SecretFields {
  name: string;
}

/**
 * PUT .../secrets/:name. Without data and binaryData it is a metadata-only edit that keeps the raw
 * data map as it is. With data, text values are replaced by data; binary values are kept unless
 * binaryData is given, which then names the complete set of binary values.
 */
export interface UpdateSecretRequest extends SecretFields {
  /** The metadata.resourceVersion that the client loaded. */
  resourceVersion: string;
}

/** POST .../secrets/:name/adopt */
export interface AdoptSecretRequest {
  resourceVersion: string;
  description?: string;
  access?: Partial<AccessRules>;
}

export type IdentityMode = 'impersonation' | 'hybrid' | 'serviceAccount';

/** GET /config */
export interface KryptonConfigDto {
  annotationPrefix: string;
  identityMode: IdentityMode;
  clusters: string[];
  defaultCluster: string;
  /** Null when KRYPTON_HISTORY_LIMIT is invalid; see error. */
  historyLimit: number | null;
  restartEnabled: boolean;
  managedOnly: boolean;
  maxSecretBytes: number;
  previewLimit: number;
  /** Present, with HTTP 503, when the deployment's configuration is invalid. */
  error?: string;
}

/** One retained version of a live Secret, as the history list shows it: no values. */
export interface VersionSummary {
  /** The app counter of the state this snapshot holds. */
  version: number;
  /** When the first successful snapshot of that state was taken, and by whom. */
  snapshotAt: string;
  snapshotBy: string;
  /** The live Secret's type when the snapshot was taken. */
  sourceType: string;
  /** The live resourceVersion the snapshot was taken from. */
  sourceResourceVersion: string;
  /** The snapshot's keys; null when they were too many to record in an annotation. */
  keys: string[] | null;
}

/** GET .../secrets/:name/versions: newest first. */
export interface VersionList {
  items: VersionSummary[];
}

/** GET .../secrets/:name/versions/:version: one snapshot with its values, split like a SecretDto. */
export interface VersionDto extends Omit<VersionSummary, 'keys'> {
  cluster: string;
  namespace: string;
  /** The live Secret this is a version of. */
  name: string;
  /** The description and rules copied from the live Secret; they grant nothing now. */
  description?: string;
  access: AccessRules;
  keys: string[];
  binaryKeys: string[];
  data: Record<string, string>;
  binaryData: Record<string, string>;
}

/** POST .../secrets/:name/restore */
export interface RestoreRequest {
  version: number;
  /** The live metadata.resourceVersion that the client loaded. */
  resourceVersion: string;
}

/** DELETE .../secrets/:name: 200 with status deleted, 202 with status pending. */
export interface DeleteResult {
  status: 'deleted' | 'pending';
  /** cleaned: the eligible snapshots found before the live delete are gone; kept: keepHistory. */
  history: 'cleaned' | 'kept';
}
