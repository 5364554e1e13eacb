import { SecretWriteAnswer } from '@krypton/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Draft, draftFromSecret, emptyDraft } from './draft';

interface PinnedState {
  /**
   * The Secret the draft was started from; its resourceVersion is what a save sends. Without
   * values (a RedactedSecret) when the user may not reveal them: the draft then has no rows.
   */
  baseline?: SecretWriteAnswer;
  draft: Draft;
  /**
   * Revisions of the `initial` prop that are not news: the pinned one and whatever the prop held
   * when the pinning request started. ResourceVersions are opaque, so "newer" can only mean
   * "not one of these".
   */
  acknowledged: string[];
}

export interface PinnedDraft {
  draft: Draft;
  /** Undefined while creating, or while an edit form waits for its first Secret. */
  baseline?: SecretWriteAnswer;
  /** The `initial` prop holds a revision other than the pinned one. */
  newerAvailable: boolean;
  /** Functional update of the draft only; the baseline cannot move through it. */
  update: (change: (draft: Draft) => Draft) => void;
  /**
   * Call when a reload or save starts; call the returned function with its answer. It moves the
   * baseline and resets every field, the pending paste and value visibility together: the only
   * way a new revision enters the form (Reload latest or a successful save).
   */
  startPin: () => (secret: SecretWriteAnswer) => void;
}

function pinnedState(
  secret: SecretWriteAnswer | undefined,
  propRevision: string | undefined,
): PinnedState {
  const acknowledged: string[] = [];
  if (secret) acknowledged.push(secret.resourceVersion);
  if (propRevision !== undefined) acknowledged.push(propRevision);
  return {
    baseline: secret,
    draft: secret ? draftFromSecret(secret) : emptyDraft(),
    acknowledged,
  };
}

/**
 * The edit form's state: the draft and the revision it was started from, pinned together.
 *
 * A later `initial` (a background refetch, a reconnect, a retained page shown again) never
 * replaces them: an old draft must not silently gain a newer revision and overwrite changes the
 * user has not seen. It only raises `newerAvailable`. The state is React state only; drafts hold
 * Secret values and must not reach localStorage or sessionStorage.
 *
 * @param initial - the Secret as the caller currently knows it
 * @param adoptFirst - adopt the first `initial` that arrives when nothing is pinned yet (an edit
 *   form mounted before its Secret loaded has no draft to protect)
 */
export function useDraft(
  initial: SecretWriteAnswer | undefined,
  adoptFirst: boolean,
): PinnedDraft {
  const [state, setState] = useState<PinnedState>(() =>
    pinnedState(adoptFirst ? initial : undefined, initial?.resourceVersion),
  );

  useEffect(() => {
    if (adoptFirst && initial) {
      setState(current =>
        current.baseline
          ? current
          : pinnedState(initial, initial.resourceVersion),
      );
    }
  }, [adoptFirst, initial]);

  const propRevision = initial?.resourceVersion;
  const latestPropRevision = useRef(propRevision);
  latestPropRevision.current = propRevision;
  // Only the prop as it was when the request started is known to be no newer than the answer; a
  // prop that arrives while the request runs may be newer, so it stays news.
  const startPin = useCallback(() => {
    const seen = latestPropRevision.current;
    return (secret: SecretWriteAnswer) => setState(pinnedState(secret, seen));
  }, []);
  const update = useCallback(
    (change: (draft: Draft) => Draft) =>
      setState(current => ({ ...current, draft: change(current.draft) })),
    [],
  );

  const newerAvailable =
    state.baseline !== undefined &&
    propRevision !== undefined &&
    !state.acknowledged.includes(propRevision);

  return {
    draft: state.draft,
    baseline: state.baseline,
    newerAvailable,
    update,
    startPin,
  };
}
