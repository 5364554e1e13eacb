import { JsonPatchOperation } from './types';

/** A key as one segment of a JSON Pointer (RFC 6901). */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Adds one entry to the string map at `path` (labels, annotations): the entry alone when the map
 * exists, the whole map when the object has none there yet, since a JSON Patch cannot add below a
 * missing member.
 */
export function addMapEntry(
  path: string,
  map: unknown,
  key: string,
  value: unknown,
): JsonPatchOperation {
  const exists = typeof map === 'object' && map !== null && !Array.isArray(map);
  return exists
    ? { op: 'add', path: `${path}/${pointerSegment(key)}`, value }
    : { op: 'add', path, value: { [key]: value } };
}

/** Removes one entry from the string map at `path`, which must hold it. */
export function removeMapEntry(path: string, key: string): JsonPatchOperation {
  return { op: 'remove', path: `${path}/${pointerSegment(key)}` };
}
