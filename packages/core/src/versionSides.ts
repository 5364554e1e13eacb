import { SecretDto, SecretSummary, VersionDto, VersionSummary } from './dto';
import { DiffSide } from './keyDiff';

/**
 * Why the live side is missing (unreadable) or holds keys only (the others); each host says it in
 * its own words.
 *
 * @public
 */
export type LiveReason =
  | 'unreadable'
  | 'denied'
  | 'otherRevision'
  | 'notLoaded';

/**
 * The live side of a comparison, or why there is none; reason also says why keys only.
 *
 * @public
 */
export interface LiveComparison {
  side?: DiffSide;
  reason?: LiveReason;
}

/**
 * The live state to compare versions with. Values count only when they belong to the very
 * revision the summary names: values of another revision would show a diff against a state that
 * a restore would not replace.
 *
 * @public
 */
export function liveComparison(
  summary: SecretSummary | undefined,
  live: SecretDto | undefined,
  canReveal: boolean | undefined,
): LiveComparison {
  if (!summary) {
    return { reason: 'unreadable' };
  }
  const keysOnly: DiffSide = {
    keys: summary.keys,
    binaryKeys: summary.binaryKeys,
  };
  if (
    live &&
    live.uid === summary.uid &&
    live.resourceVersion === summary.resourceVersion
  ) {
    return {
      side: {
        keys: live.keys,
        binaryKeys: live.binaryKeys,
        values: { data: live.data, binaryData: live.binaryData },
      },
    };
  }
  if (canReveal === false) {
    return { side: keysOnly, reason: 'denied' };
  }
  if (live) {
    return { side: keysOnly, reason: 'otherRevision' };
  }
  return { side: keysOnly, reason: 'notLoaded' };
}

/**
 * The side of a version, or of a live Secret read with its values (they split alike).
 *
 * @public
 */
export function versionSide(
  version: Pick<
    VersionDto | SecretDto,
    'keys' | 'binaryKeys' | 'data' | 'binaryData'
  >,
): DiffSide {
  return {
    keys: version.keys,
    binaryKeys: version.binaryKeys,
    values: { data: version.data, binaryData: version.binaryData },
  };
}

/**
 * A version's keys from the list, without a value read; undefined when they were not recorded.
 *
 * @public
 */
export function versionKeysSide(version: VersionSummary): DiffSide | undefined {
  return version.keys ? { keys: version.keys, binaryKeys: [] } : undefined;
}
