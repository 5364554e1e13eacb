import { base64DecodedLength, utf8Length } from './encoding';
import { MAX_SECRET_BYTES, SIZE_ESTIMATE_INFLATION } from './limits';

/**
 * Conservative size estimate of a Secret being written from text input: the UTF-8 bytes of keys
 * and text values plus the decoded bytes of binary values, all times 1.4 for base64 inflation.
 * The form meter and the backend both use this function.
 *
 * @public
 */
export function estimateSecretSize(
  text: Record<string, string>,
  binaryBase64: Record<string, string> = {},
): number {
  let bytes = 0;
  for (const key of Object.keys(text))
    bytes += utf8Length(key) + utf8Length(text[key]);
  for (const key of Object.keys(binaryBase64)) {
    bytes += utf8Length(key) + base64DecodedLength(binaryBase64[key]);
  }
  return Math.ceil(bytes * SIZE_ESTIMATE_INFLATION);
}

/** @public */
export function exceedsEstimate(
  text: Record<string, string>,
  binaryBase64: Record<string, string> = {},
): boolean {
  return estimateSecretSize(text, binaryBase64) > MAX_SECRET_BYTES;
}

/**
 * Kubernetes' own bound: the decoded bytes of all values. Used for raw restores and metadata-only
 * updates, so that valid native binary data is not refused for base64 inflation.
 */
function decodedDataSize(nativeData: Record<string, string>): number {
  let bytes = 0;
  for (const key of Object.keys(nativeData))
    bytes += base64DecodedLength(nativeData[key]);
  return bytes;
}

/** @public */
export function exceedsDecodedBound(
  nativeData: Record<string, string>,
): boolean {
  return decodedDataSize(nativeData) > MAX_SECRET_BYTES;
}
