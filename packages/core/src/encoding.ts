// Isomorphic: uses atob/btoa and TextEncoder/TextDecoder, available in browsers and Node 22.

const strictDecoder = new TextDecoder('utf-8', {
  fatal: true,
  ignoreBOM: true,
});
const encoder = new TextEncoder();
// Canonical base64 only: in a padded final group, the bits beyond the last byte must be zero
// ("QQ==", never "QR=="), because Kubernetes stores the canonical form. Accepting another spelling
// of the same bytes would make a byte-identical write look like a data change.
const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;

/**
 * A map without a prototype, so that keys such as __proto__ are plain own entries.
 *
 * @public
 */
export function emptyMap<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/**
 * Whether the value is the canonical standard base64 (RFC 4648 section 4, padded) of its bytes.
 *
 * @public
 */
export function isBase64(value: string): boolean {
  return BASE64.test(value);
}

/**
 * Strict UTF-8 decoding: undefined for any invalid sequence, never U+FFFD. A BOM is kept.
 *
 * @public
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** @public */
export function base64ToBytes(value: string): Uint8Array {
  const bin = atob(value);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** @public */
export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    bin += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(bin);
}

/**
 * The text of a base64 value when its bytes are valid UTF-8, which then round-trip exactly
 * (a BOM is kept as U+FEFF); undefined for anything else.
 *
 * @public
 */
export function losslessText(base64: string): string | undefined {
  return decodeUtf8(base64ToBytes(base64));
}

/** @public */
export function textToBase64(text: string): string {
  return bytesToBase64(encoder.encode(text));
}

/** @public */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Decoded length of a canonical base64 string, without decoding it.
 *
 * @public
 */
export function base64DecodedLength(value: string): number {
  let pad = 0;
  if (value.endsWith('==')) pad = 2;
  else if (value.endsWith('=')) pad = 1;
  return (value.length / 4) * 3 - pad;
}

const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * False for strings with lone surrogates, which UTF-8 cannot carry without loss.
 *
 * @public
 */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}
