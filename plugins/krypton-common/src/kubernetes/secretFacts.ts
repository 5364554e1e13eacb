import { SecretLastChange, SecretOwnerReference } from '../dto';
import { emptyMap } from '../encoding';
import { ObjectMeta } from './types';

/**
 * kubectl apply keeps the whole applied object here, data included: after a rotation it would
 * still hold the old values, so data-changing writes drop it, it never reaches a snapshot, and it
 * is never shown.
 */
export const LAST_APPLIED_ANNOTATION =
  'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Annotations that copy the object they sit on, Secret data included. They never leave the
 * backend in a summary, since readers without reveal rights get summaries (lists, the summary
 * route, write answers, actions). This is the one place that says which annotations are withheld.
 */
const WITHHELD_ANNOTATIONS: ReadonlySet<string> = new Set([
  LAST_APPLIED_ANNOTATION,
  // kapp keeps the applied object, and a patch of its data, in plain text
  // (carvel-dev/kapp#137).
  'kapp.k14s.io/original',
  'kapp.k14s.io/original-diff',
]);

/** Whether an annotation may be shown to whoever may read the Secret's metadata. */
export function isShownAnnotation(key: string): boolean {
  return !WITHHELD_ANNOTATIONS.has(key);
}

/** The annotations a summary carries: all but the withheld ones, in a prototype-less map. */
export function shownAnnotations(
  annotations: Record<string, string> | undefined,
): Record<string, string> {
  const out = emptyMap<string>();
  for (const key of Object.keys(annotations ?? {})) {
    if (isShownAnnotation(key)) out[key] = annotations![key];
  }
  return out;
}

/** The labels a summary carries, in a prototype-less map. */
export function shownLabels(
  labels: Record<string, string> | undefined,
): Record<string, string> {
  const out = emptyMap<string>();
  for (const key of Object.keys(labels ?? {})) out[key] = labels![key];
  return out;
}

/** Owner references as a summary shows them: who owns the Secret, and whether it controls it. */
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
