import {
  MAX_SECRET_BYTES,
  bytesToBase64,
  decodeUtf8,
  validateDataKey,
} from '@krypton/core';
import { KryptonT } from '../../translation';
import { formatSize } from './SizeMeter';

/** What a file chosen for a value gave: its text, its bytes as base64, or why it was refused. */
export type FileValue =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; base64: string; size: number }
  | { kind: 'refused'; reason: string };

/** A file name in messages: the user's own, but bounded. */
const shown = (file: File) =>
  file.name.length > 64 ? `${file.name.slice(0, 63)}…` : file.name;

// FileReader rather than Blob.arrayBuffer(): it is what every browser and jsdom implement alike.
function readBytes(file: File): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Reads a file chosen for a value. A file over the Secret limit is refused from its size alone,
 * before it is read. As text, the bytes must be valid UTF-8 (decoded strictly, a BOM kept), so the
 * value round-trips byte for byte; as binary, they become the canonical base64 that the API takes.
 * Nothing of the content reaches a message or a log.
 */
export async function readFileValue(
  file: File,
  as: 'text' | 'binary',
  /** Said after the refusal of a file that is not text. */
  notTextHint: string,
  t: KryptonT,
): Promise<FileValue> {
  if (file.size > MAX_SECRET_BYTES) {
    return {
      kind: 'refused',
      reason: t('edit.file.tooLarge', {
        file: shown(file),
        size: formatSize(t, file.size),
        limit: formatSize(t, MAX_SECRET_BYTES),
      }),
    };
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(file);
  } catch {
    return {
      kind: 'refused',
      reason: t('edit.file.unreadable', { file: shown(file) }),
    };
  }
  if (as === 'binary') {
    return { kind: 'binary', base64: bytesToBase64(bytes), size: bytes.length };
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    return {
      kind: 'refused',
      reason: t('edit.file.notText', { file: shown(file), hint: notTextHint }),
    };
  }
  return { kind: 'text', text };
}

/** The file's name as the key, as `kubectl create secret --from-file` does, when it is a valid key. */
export function keyFromFileName(name: string): string | undefined {
  try {
    validateDataKey(name);
    return name;
  } catch {
    return undefined;
  }
}
