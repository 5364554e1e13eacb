/** The fields of a Kubernetes object's metadata that Krypton reads or must preserve. */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: Array<Record<string, unknown>>;
  managedFields?: unknown[];
  [other: string]: unknown;
}

/** A core/v1 Secret as the API server returns it: data values are base64. */
export interface NativeSecret {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  type?: string;
  immutable?: boolean;
  data?: Record<string, string>;
}

export interface ListOptions {
  labelSelector?: string;
  limit?: number;
  continueToken?: string;
}

export interface SecretPage {
  items: NativeSecret[];
  continueToken?: string;
}

/** UID and resourceVersion that a mutation must still find on the object. */
export interface Preconditions {
  uid: string;
  resourceVersion: string;
}

/**
 * The small typed view of the Kubernetes API that Krypton's rules are written against. The
 * backend implements it over HTTP; unit tests implement it in memory. Failures are thrown as
 * KubeApiError.
 */
export interface SecretGateway {
  getSecret(namespace: string, name: string): Promise<NativeSecret>;
  listSecrets(namespace: string, options?: ListOptions): Promise<SecretPage>;
  createSecret(namespace: string, secret: NativeSecret): Promise<NativeSecret>;
  /** Full replacement; metadata.uid and metadata.resourceVersion are the preconditions. */
  replaceSecret(
    namespace: string,
    name: string,
    secret: NativeSecret,
  ): Promise<NativeSecret>;
  deleteSecret(
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<void>;
}

/**
 * A failed Kubernetes request. status is the HTTP status, or 0 when no answer arrived (the outcome
 * of a mutation is then unknown). The upstream message is kept out of this error on purpose:
 * nothing that reaches a log, an audit event or a response can carry it.
 */
export class KubeApiError extends Error {
  constructor(readonly status: number, readonly reason?: string) {
    super(
      `Kubernetes request failed with ${status || 'no response'}${
        reason ? ` (${reason})` : ''
      }`,
    );
    this.name = 'KubeApiError';
  }
}
