import { SecretWriteAnswer, NativeSecret, VersionedWrite } from '@krypton/core';
import { ownedEditMeta } from './audit';

/** An update's or restore's answer, and what it saved into history for its audit event. */
export async function versionedWriteResult(
  answer: (secret: NativeSecret) => Promise<SecretWriteAnswer>,
  out: VersionedWrite,
) {
  const result = await answer(out.secret);
  return {
    result,
    meta: {
      ...(out.archive
        ? {
            archivedVersion: out.archive.archivedVersion,
            prunedCount: out.archive.pruned,
          }
        : {}),
      ...ownedEditMeta(out.owned),
      dataChanged: out.dataChanged,
      version: result.version ?? 0,
      resourceVersion: result.resourceVersion,
    },
  };
}
