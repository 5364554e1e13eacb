import { base64DecodedLength, isBase64, utf8Length } from '@krypton/core';
import type { ValuesT } from './texts';

/**
 * text: lossless UTF-8 from data; binary: original base64 from binaryData; missing: listed only.
 *
 * @public
 */
export type ValueKind = 'text' | 'binary' | 'missing';

/** @public */
export interface ValueEntry {
  key: string;
  kind: ValueKind;
  /** The text itself, or the original base64 for a binary value; undefined when missing. */
  value?: string;
  /** UTF-8 bytes of a text value, decoded bytes of a binary value; undefined when unknown. */
  bytes?: number;
}

// Own-property checks: keys such as "constructor" or "__proto__" are ordinary Secret keys, and a
// plain lookup would otherwise read them from Object.prototype.
function hasOwn(map: Record<string, string>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

// Code-unit order rather than localeCompare: stable across browsers and locales, like kubectl.
function byCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/**
 * One entry per key of keys, data and binaryData, sorted. A key present in both maps is treated as
 * binary, the more cautious reading: it is never previewed as text.
 *
 * @public
 */
export function valueEntries(
  data: Record<string, string>,
  binaryData: Record<string, string>,
  keys: readonly string[] = [],
): ValueEntry[] {
  const all = new Set<string>([
    ...keys,
    ...Object.keys(data),
    ...Object.keys(binaryData),
  ]);
  return [...all].sort(byCodeUnits).map((key): ValueEntry => {
    if (hasOwn(binaryData, key)) {
      const value = binaryData[key];
      // base64DecodedLength assumes canonical base64; anything else has no reliable size.
      return {
        key,
        kind: 'binary',
        value,
        bytes: isBase64(value) ? base64DecodedLength(value) : undefined,
      };
    }
    if (hasOwn(data, key)) {
      const value = data[key];
      return { key, kind: 'text', value, bytes: utf8Length(value) };
    }
    return { key, kind: 'missing' };
  });
}

/**
 * What a Secret's metadata tells of its values without them: the keys, which are binary, sizes.
 *
 * @public
 */
export interface KeyFacts {
  keys: readonly string[];
  binaryKeys: readonly string[];
  /** Decoded bytes per key, where the host knows them. */
  sizes?: Readonly<Record<string, number>>;
}

/**
 * One entry per key of a Secret whose values are fetched only when asked for (ValuesTable's
 * `load`): kind and size come from its metadata, a value only once it was fetched (`loaded`).
 *
 * @public
 */
export function keyEntries(
  facts: KeyFacts,
  loaded: {
    data: Record<string, string>;
    binaryData: Record<string, string>;
  },
): ValueEntry[] {
  const binary = new Set(facts.binaryKeys);
  const sizes = facts.sizes;
  return [...new Set(facts.keys)].sort(byCodeUnits).map((key): ValueEntry => {
    const size =
      sizes && Object.prototype.hasOwnProperty.call(sizes, key)
        ? sizes[key]
        : undefined;
    if (binary.has(key)) {
      const value = hasOwn(loaded.binaryData, key)
        ? loaded.binaryData[key]
        : undefined;
      const bytes =
        value !== undefined && isBase64(value)
          ? base64DecodedLength(value)
          : size;
      return { key, kind: 'binary', value, bytes };
    }
    const value = hasOwn(loaded.data, key) ? loaded.data[key] : undefined;
    return {
      key,
      kind: 'text',
      value,
      bytes: value !== undefined ? utf8Length(value) : size,
    };
  });
}

/** "1 byte", "1,234 bytes", grouped as the user's language groups digits. */
export function formatBytes(bytes: number | undefined, t: ValuesT): string {
  if (bytes === undefined) return t('values.size.unknown');
  return t('values.size.bytes', { count: bytes });
}
