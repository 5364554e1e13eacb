import { useEffect, useState } from 'react';
import type { ValueEntry } from './entries';

/** What is open under a row: the preview, the raw text, or nothing. */
export type ValuePanel = 'preview' | 'raw' | undefined;
/**
 * Where a copy stands: not tried lately, done, or refused by the browser.
 *
 * @public
 */
export type CopyStatus = 'idle' | 'copied' | 'failed';

/** How long "Copied" or "Could not copy" stays next to the button, in ms. */
export const COPY_STATUS_MS = 4000;

/**
 * Copies text to the clipboard; false when it could not. navigator.clipboard only: the
 * execCommand fallback would need the value in a hidden textarea in the DOM. It is missing outside
 * secure contexts, which is reported rather than worked around.
 *
 * @public
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) {
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A copy button's state: `copy` puts text on the clipboard (no text is a failure), and `status`
 * says how it went for COPY_STATUS_MS before it goes back to idle. The portal and Headlamp share it.
 *
 * @public
 */
export function useCopyText(): {
  status: CopyStatus;
  copy: (text: string | undefined) => Promise<void>;
  /** Back to idle at once, as when the text to copy is another. */
  reset: () => void;
} {
  const [status, setStatus] = useState<CopyStatus>('idle');
  useEffect(() => {
    if (status === 'idle') return undefined;
    const timer = setTimeout(() => setStatus('idle'), COPY_STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);
  return {
    status,
    copy: async text =>
      setStatus(
        text !== undefined && (await copyToClipboard(text))
          ? 'copied'
          : 'failed',
      ),
    reset: () => setStatus('idle'),
  };
}

/** Above this length, the revealed cell holds only the start of a value. */
const CELL_FULL_MAX = 16_384;
const CELL_START = 1_024;

/**
 * What the revealed cell holds: one line, cut with an ellipsis by the host's styles, so a long
 * value's start looks the same. The browser lays out a line's whole text however little of it
 * shows: 131,072 characters cost 30 ms in Chromium. Expand, Raw and Copy always have the whole
 * value.
 */
export function cellText(value: string): string {
  if (value.length <= CELL_FULL_MAX) return value;
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(value[CELL_START - 1])
    ? CELL_START - 1
    : CELL_START;
  return value.slice(0, end);
}

/** The placeholder of a masked value and of an empty cell: symbols, not words. */
export const MASK = '••••••••';
export const NONE = '—';

export interface ValueRowState {
  revealed: boolean;
  panel: ValuePanel;
  copyStatus: CopyStatus;
  /** The value is being fetched for a Reveal, Expand, Raw or Copy. */
  loading: boolean;
  /** The last fetch did not bring the value. */
  loadFailed: boolean;
  toggleReveal: () => void;
  togglePanel: (panel: Exclude<ValuePanel, undefined>) => void;
  copy: () => Promise<void>;
}

/**
 * The masking rules of one value's row, for every host: masked until revealed; Expand and Raw are
 * reveals too, so Hide masks everything of the key; a different value under the same key starts
 * masked again. With `load`, a value that the entry does not carry yet is fetched by the first
 * Reveal, Expand, Raw or Copy, and only then: a value is read when a person asks for it.
 */
export function useValueRow(
  entry: ValueEntry,
  load?: () => Promise<string | undefined>,
): ValueRowState {
  const [revealed, setRevealed] = useState(false);
  const [panel, setPanel] = useState<ValuePanel>(undefined);
  const copier = useCopyText();
  const [loading, setLoading] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  const { value, kind } = entry;
  // A reveal applies to what the user chose to see, not to the key: another history version or
  // an external edit masks it again, while an unchanged value on a refresh keeps its state.
  // Adjusting state during render is React's pattern for this.
  // A value arriving for a key that had none yet is the one the user asked for, and keeps the
  // reveal that asked for it.
  const [seen, setSeen] = useState({ kind, value });
  if (
    seen.kind !== kind ||
    (seen.value !== value && seen.value !== undefined)
  ) {
    setSeen({ kind, value });
    setRevealed(false);
    setPanel(undefined);
    copier.reset();
  } else if (seen.value !== value) {
    setSeen({ kind, value });
  }

  /** The value, fetched first where the entry does not carry it; undefined when it failed. */
  const fetched = async (): Promise<string | undefined> => {
    if (value !== undefined || !load) return value;
    setLoading(true);
    setLoadFailed(false);
    let out: string | undefined;
    try {
      out = await load();
    } catch {
      out = undefined;
    }
    setLoading(false);
    if (out === undefined) setLoadFailed(true);
    return out;
  };
  /** Shows what the user asked for, and masks it again when its value could not be fetched. */
  const show = (next: ValuePanel) => {
    setRevealed(true);
    setPanel(next);
    if (value !== undefined) return;
    fetched().then(out => {
      if (out === undefined) {
        setRevealed(false);
        setPanel(undefined);
      }
    });
  };

  return {
    revealed,
    panel,
    copyStatus: copier.status,
    loading,
    loadFailed,
    toggleReveal: () => {
      if (revealed) {
        setRevealed(false);
        setPanel(undefined);
      } else {
        show(panel);
      }
    },
    togglePanel: next => {
      if (panel === next) {
        setPanel(undefined);
      } else {
        show(next);
      }
    },
    copy: async () => {
      const text = await fetched();
      // Nothing to copy is a failure only where a value was to be read.
      if (text !== undefined || load) await copier.copy(text);
    },
  };
}
