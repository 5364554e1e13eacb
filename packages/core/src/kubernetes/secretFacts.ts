import { SecretLastChange, SecretOwnerReference } from '../dto';
import { emptyMap } from '../encoding';
import { ObjectMeta } from './types';

/**
 * kubectl apply keeps the whole applied object here, data included: after a rotation it would
 * still hold the old values, so data-changing writes drop it, it never reaches a snapshot, and it
 * is never shown.
 *
 * @public
 */
export const LAST_APPLIED_ANNOTATION =
  'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Who an answer goes to. `values`: the answer that carries the values (SecretDto), sent only to a
 * reader who may reveal them. `summary`: every other answer (lists, the summary route, redacted
 * write answers, actions and MCP tools), which readers who may NOT reveal the values get.
 *
 * @public
 */
export type AnnotationAudience = 'summary' | 'values';

/**
 * Annotations that copy the object they sit on, Secret data included. They are withheld from every
 * answer, the values answer too: after a rotation they still hold the old values, which history,
 * not an annotation, shows.
 */
const DATA_COPIES: ReadonlySet<string> = new Set([
  LAST_APPLIED_ANNOTATION,
  // kapp keeps the applied object, and a patch of its data, in plain text
  // (carvel-dev/kapp#137).
  'kapp.k14s.io/original',
  'kapp.k14s.io/original-diff',
]);

/**
 * The annotations of other tools that a summary shows: each one checked, in the tool's source or
 * reference, to be set from the tool's own configuration or from object names, times and
 * revisions, never from the Secret's values. Summaries are an allow-list, because a tool can put a value-derived
 * annotation on a Secret without Krypton knowing it; a deny-list fails open for each new one:
 *
 * - External Secrets' `reconcile.external-secrets.io/data-hash` is an unsalted hash (MD5, later
 *   SHA3-224) of the data map: with the key names, which summaries show, anyone can test a guess of
 *   a low-entropy value against it.
 * - cert-manager's `common-name`, `alt-names`, `ip-sans`, `uri-sans`, `email-sans` and `subject-*`
 *   are read out of the issued certificate in `tls.crt`, one of the Secret's values. They are often
 *   public, but an internal client certificate's subject is not, and Krypton has no way to tell
 *   which: a reader who may not reveal `tls.crt` does not get them.
 * - `kubernetes.io/change-cause` (kubectl --record) holds the command line, so
 *   `kubectl create secret generic --from-literal=password=...` leaves the value in it.
 * - Flux's old `kustomize.toolkit.fluxcd.io/checksum` is a checksum of the source that holds the
 *   manifest, data included.
 *
 * Every other annotation, including those a tool takes from its user (the Secret templates of
 * External Secrets, Vault Secrets Operator and Sealed Secrets), is withheld from summaries and
 * counted; the values answer shows it. Add a key only with the evidence that its value cannot be
 * derived from the data.
 */
const SUMMARY_ANNOTATIONS: ReadonlySet<string> = new Set([
  // Kubernetes: the token's service account; a free-text description of the object.
  'kubernetes.io/service-account.name',
  'kubernetes.io/service-account.uid',
  'kubernetes.io/description',
  // Helm: the release that owns the object (adoption), its keep policy and hooks.
  'meta.helm.sh/release-name',
  'meta.helm.sh/release-namespace',
  'helm.sh/resource-policy',
  'helm.sh/hook',
  'helm.sh/hook-weight',
  'helm.sh/hook-delete-policy',
  // Argo CD: the application's tracking id (app:group/kind:namespace/name) and sync settings.
  'argocd.argoproj.io/tracking-id',
  'argocd.argoproj.io/sync-options',
  'argocd.argoproj.io/compare-options',
  'argocd.argoproj.io/sync-wave',
  'argocd.argoproj.io/hook',
  'argocd.argoproj.io/hook-delete-policy',
  // Flux kustomize-controller: how it applies, prunes and reconciles the object.
  'kustomize.toolkit.fluxcd.io/reconcile',
  'kustomize.toolkit.fluxcd.io/prune',
  'kustomize.toolkit.fluxcd.io/ssa',
  'kustomize.toolkit.fluxcd.io/force',
  // Sealed Secrets: scope and takeover flags ("true"), set by the SealedSecret's author.
  'sealedsecrets.bitnami.com/managed',
  'sealedsecrets.bitnami.com/patch',
  'sealedsecrets.bitnami.com/cluster-wide',
  'sealedsecrets.bitnami.com/namespace-wide',
  'sealedsecrets.bitnami.com/skip-set-owner-references',
  // Kubernetes replicator (mittwald): sources, targets, namespace patterns, and on a copy the
  // source's resourceVersion, the time and the copied key names.
  'replicator.v1.mittwald.de/replicate-from',
  'replicator.v1.mittwald.de/replicate-to',
  'replicator.v1.mittwald.de/replicate-to-matching',
  'replicator.v1.mittwald.de/replication-allowed',
  'replicator.v1.mittwald.de/replication-allowed-namespaces',
  'replicator.v1.mittwald.de/replicated-at',
  'replicator.v1.mittwald.de/replicated-from-version',
  'replicator.v1.mittwald.de/replicated-keys',
  'replicator.v1.mittwald.de/keep-owner-references',
  'replicator.v1.mittwald.de/strip-labels',
  // Reflector (emberstack): the same, for mirrors.
  'reflector.v1.k8s.emberstack.com/reflection-allowed',
  'reflector.v1.k8s.emberstack.com/reflection-allowed-namespaces',
  'reflector.v1.k8s.emberstack.com/reflection-auto-enabled',
  'reflector.v1.k8s.emberstack.com/reflection-auto-namespaces',
  'reflector.v1.k8s.emberstack.com/reflects',
  'reflector.v1.k8s.emberstack.com/auto-reflects',
  'reflector.v1.k8s.emberstack.com/reflected-version',
  'reflector.v1.k8s.emberstack.com/reflected-at',
  // cert-manager: the Certificate and Issuer that the Secret is issued from (their names, from
  // the Certificate's spec), and the cainjector opt-in. Not the names read out of the certificate.
  'cert-manager.io/certificate-name',
  'cert-manager.io/issuer-name',
  'cert-manager.io/issuer-kind',
  'cert-manager.io/issuer-group',
  'cert-manager.io/allow-direct-injection',
]);

/**
 * Whether an annotation reaches this audience. Data copies reach nobody. A summary shows Krypton's
 * own annotations, those under `<prefix>/` (krypton.annotationPrefix; Krypton writes nothing there
 * that is derived from the values: the counter, description, access rules, history bookkeeping),
 * and the tool annotations listed above; the values answer shows every other annotation too. This
 * is the one place that says which annotations are shown.
 *
 * @public
 */
export function isShownAnnotation(
  key: string,
  prefix: string,
  audience: AnnotationAudience,
): boolean {
  if (DATA_COPIES.has(key)) return false;
  if (audience === 'values') return true;
  return key.startsWith(`${prefix}/`) || SUMMARY_ANNOTATIONS.has(key);
}

/**
 * The annotations an answer carries, and how many of the Secret's it leaves out.
 *
 * @public
 */
export interface ShownAnnotations {
  /** A prototype-less map. */
  annotations: Record<string, string>;
  withheld: number;
}

/**
 * The annotations this audience gets (isShownAnnotation), in one pass over the keys.
 *
 * @public
 */
export function shownAnnotations(
  annotations: Record<string, string> | undefined,
  prefix: string,
  audience: AnnotationAudience,
): ShownAnnotations {
  const shown = emptyMap<string>();
  let withheld = 0;
  for (const key of Object.keys(annotations ?? {})) {
    if (isShownAnnotation(key, prefix, audience))
      shown[key] = annotations![key];
    else withheld += 1;
  }
  return { annotations: shown, withheld };
}

/**
 * The labels a summary carries, in a prototype-less map.
 *
 * @public
 */
export function shownLabels(
  labels: Record<string, string> | undefined,
): Record<string, string> {
  const out = emptyMap<string>();
  for (const key of Object.keys(labels ?? {})) out[key] = labels![key];
  return out;
}

/**
 * Owner references as a summary shows them: who owns the Secret, and whether it controls it.
 *
 * @public
 */
export function shownOwnerReferences(meta: ObjectMeta): SecretOwnerReference[] {
  const out: SecretOwnerReference[] = [];
  for (const ref of meta.ownerReferences ?? []) {
    if (
      typeof ref?.kind !== 'string' ||
      typeof ref.name !== 'string' ||
      typeof ref.uid !== 'string'
    )
      continue;
    out.push({
      kind: ref.kind,
      name: ref.name,
      uid: ref.uid,
      controller: ref.controller === true,
    });
  }
  return out;
}

/**
 * The newest write recorded in managedFields: when any writer (Krypton, kubectl, a controller)
 * last changed the Secret, data or metadata, and the field manager it wrote as. The API server
 * keeps these entries on every object, so lists need no extra request per Secret. Absent when no
 * entry carries a valid time (managedFields stripped, or a server that does not track them).
 *
 * @public
 */
export function lastChange(meta: ObjectMeta): SecretLastChange | undefined {
  let newest: { at: number; change: SecretLastChange } | undefined;
  for (const entry of meta.managedFields ?? []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { time, manager } = entry as { time?: unknown; manager?: unknown };
    if (typeof time !== 'string') continue;
    const at = Date.parse(time);
    if (Number.isNaN(at) || (newest && newest.at >= at)) continue;
    const change: SecretLastChange = { time };
    if (typeof manager === 'string' && manager !== '') change.manager = manager;
    newest = { at, change };
  }
  return newest?.change;
}

/**
 * Krypton's field manager on every write: the backend's User-Agent starts with it, and Headlamp's
 * writes send it, so that a server-side apply that conflicts with a Krypton edit names Krypton.
 *
 * @public
 */
export const KRYPTON_FIELD_MANAGER = 'krypton';

/**
 * A field manager as a warning may name it: visible ASCII without spaces, at most 128 characters
 * (the API server's limit). Any client picks its own, so anything else is left out.
 */
const FIELD_MANAGER = /^[\x21-\x7e]{1,128}$/;

/**
 * The field managers other than Krypton that own data fields through server-side apply (an entry
 * with `operation: Apply` whose fields hold `f:data` or `f:stringData`), sorted, each named once.
 * After Krypton changes a key that one of them applied, that manager's next apply of another
 * value fails on a field conflict with `krypton` unless it forces.
 *
 * @public
 */
export function dataAppliedBy(meta: ObjectMeta): string[] {
  const managers = new Set<string>();
  for (const entry of meta.managedFields ?? []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { operation, manager, fieldsV1 } = entry as {
      operation?: unknown;
      manager?: unknown;
      fieldsV1?: unknown;
    };
    if (
      operation !== 'Apply' ||
      typeof manager !== 'string' ||
      !FIELD_MANAGER.test(manager) ||
      manager === KRYPTON_FIELD_MANAGER ||
      typeof fieldsV1 !== 'object' ||
      fieldsV1 === null
    ) {
      continue;
    }
    const fields = fieldsV1 as Record<string, unknown>;
    if ('f:data' in fields || 'f:stringData' in fields) managers.add(manager);
  }
  return [...managers].sort();
}
