import { base64ToBytes, isBase64 } from './encoding';

/**
 * present: the key is on both sides, but the values of at least one side are unknown (the user
 * may not reveal them), so whether it changed cannot be said.
 *
 * @public
 */
export type KeyChange =
  | 'added'
  | 'removed'
  | 'changed'
  | 'unchanged'
  | 'present';

/**
 * binary whenever either side holds the key as binary: such a value is never shown as text.
 *
 * @public
 */
export type DiffKind = 'text' | 'binary';

/**
 * The values of one side, split like SecretDto and VersionDto.
 *
 * @public
 */
export interface DiffValues {
  data: Record<string, string>;
  binaryData: Record<string, string>;
}

/**
 * One side of a comparison: a live Secret or a version.
 *
 * @public
 */
export interface DiffSide {
  keys: readonly string[];
  binaryKeys: readonly string[];
  /** Undefined compares keys only. */
  values?: DiffValues;
}

/** @public */
export interface KeyDiffEntry {
  key: string;
  change: KeyChange;
  kind: DiffKind;
  /** The text before (from), for text entries whose values are known; never set for binary. */
  before?: string;
  /** The text after (to), for text entries whose values are known; never set for binary. */
  after?: string;
}

/** @public */
export interface KeyDiff {
  /** Sorted by key, in code-unit order like the values table. */
  entries: KeyDiffEntry[];
  /** False when either side's values are unknown: keys on both sides are then `present`. */
  valuesCompared: boolean;
  counts: Record<KeyChange, number>;
}

// Own-property checks: "__proto__" and "constructor" are ordinary Secret keys.
function hasOwn(map: Record<string, string>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

function byCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

const encoder = new TextEncoder();

type Stored =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; base64: string };

function stored(values: DiffValues, key: string): Stored | undefined {
  if (hasOwn(values.binaryData, key)) {
    return { kind: 'binary', base64: values.binaryData[key] };
  }
  if (hasOwn(values.data, key)) {
    return { kind: 'text', text: values.data[key] };
  }
  return undefined;
}

/**
 * The bytes Kubernetes stores. Binary values are compared as decoded bytes, not as strings, so
 * that two spellings of one byte sequence count as unchanged and a text value equal to a binary
 * one's bytes does too. A value that is not canonical base64 has no reliable bytes: undefined.
 */
function bytesOf(value: Stored): Uint8Array | undefined {
  if (value.kind === 'text') return encoder.encode(value.text);
  if (!isBase64(value.base64)) return undefined;
  return base64ToBytes(value.base64);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameValue(a: Stored, b: Stored): boolean {
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  const left = bytesOf(a);
  const right = bytesOf(b);
  if (left && right) return sameBytes(left, right);
  // Without decodable bytes only an identical string is known to be the same value.
  return (
    a.kind === b.kind &&
    (a.kind === 'binary' ? a.base64 : a.text) ===
      (b.kind === 'binary' ? b.base64 : b.text)
  );
}

function keysOf(side: DiffSide): Set<string> {
  const keys = new Set(side.keys);
  if (side.values) {
    for (const key of Object.keys(side.values.data)) keys.add(key);
    for (const key of Object.keys(side.values.binaryData)) keys.add(key);
  }
  return keys;
}

function isBinaryOn(side: DiffSide, key: string): boolean {
  return (
    side.binaryKeys.includes(key) ||
    (side.values !== undefined && hasOwn(side.values.binaryData, key))
  );
}

function textOn(side: DiffSide, key: string): string | undefined {
  const value = side.values ? stored(side.values, key) : undefined;
  return value?.kind === 'text' ? value.text : undefined;
}

/**
 * What changes from `from` to `to`, key by key: added keys are only in `to`, removed keys only in
 * `from`. Values are compared only when both sides have them; text values are carried for the
 * viewer to reveal one at a time, binary values never.
 *
 * @public
 */
export function keyDiff(from: DiffSide, to: DiffSide): KeyDiff {
  const fromKeys = keysOf(from);
  const toKeys = keysOf(to);
  const all = [...new Set([...fromKeys, ...toKeys])].sort(byCodeUnits);
  const valuesCompared = from.values !== undefined && to.values !== undefined;
  const counts: Record<KeyChange, number> = {
    added: 0,
    removed: 0,
    changed: 0,
    unchanged: 0,
    present: 0,
  };

  const entries = all.map((key): KeyDiffEntry => {
    const kind: DiffKind =
      isBinaryOn(from, key) || isBinaryOn(to, key) ? 'binary' : 'text';
    const inFrom = fromKeys.has(key);
    const inTo = toKeys.has(key);
    let change: KeyChange;
    if (!inFrom) {
      change = 'added';
    } else if (!inTo) {
      change = 'removed';
    } else {
      const before = from.values ? stored(from.values, key) : undefined;
      const after = to.values ? stored(to.values, key) : undefined;
      if (before && after) {
        change = sameValue(before, after) ? 'unchanged' : 'changed';
      } else {
        change = 'present';
      }
    }
    counts[change] += 1;
    const entry: KeyDiffEntry = { key, change, kind };
    if (kind === 'text') {
      const before = inFrom ? textOn(from, key) : undefined;
      const after = inTo ? textOn(to, key) : undefined;
      if (before !== undefined) entry.before = before;
      if (after !== undefined) entry.after = after;
    }
    return entry;
  });

  return { entries, valuesCompared, counts };
}
