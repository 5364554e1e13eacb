import { useEffect, useState } from 'react';
import type { ValueEntry } from './entries';

/** What is open under a row: the preview, the raw text, or nothing. */
export type ValuePanel = 'preview' | 'raw' | undefined;
export type CopyStatus = 'idle' | 'copied' | 'failed';

/** How long "Copied" or "Could not copy" stays next to the button, in ms. */
export const COPY_STATUS_MS = 4000;

/**
 * navigator.clipboard only: the execCommand fallback would need the value in a hidden textarea in
 * the DOM. It is missing outside secure contexts, which is reported rather than worked around.
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
  toggleReveal: () => void;
  togglePanel: (panel: Exclude<ValuePanel, undefined>) => void;
  copy: () => Promise<void>;
}

/**
 * The masking rules of one value's row, for every host: masked until revealed; Expand and Raw are
 * reveals too, so Hide masks everything of the key; a different value under the same key starts
 * masked again.
 */
export function useValueRow(entry: ValueEntry): ValueRowState {
  const [revealed, setRevealed] = useState(false);
  const [panel, setPanel] = useState<ValuePanel>(undefined);
  const [copyStatus, setCopyStatus] = useState<CopyStatus>('idle');

  useEffect(() => {
    if (copyStatus === 'idle') return undefined;
    const timer = setTimeout(() => setCopyStatus('idle'), COPY_STATUS_MS);
    return () => clearTimeout(timer);
  }, [copyStatus]);

  const { value, kind } = entry;
  // A reveal applies to what the user chose to see, not to the key: another history version or
  // an external edit masks it again, while an unchanged value on a refresh keeps its state.
  // Adjusting state during render is React's pattern for this.
  const [seen, setSeen] = useState({ kind, value });
  if (seen.kind !== kind || seen.value !== value) {
    setSeen({ kind, value });
    setRevealed(false);
    setPanel(undefined);
    setCopyStatus('idle');
  }

  return {
    revealed,
    panel,
    copyStatus,
    toggleReveal: () => {
      if (revealed) {
        setRevealed(false);
        setPanel(undefined);
      } else {
        setRevealed(true);
      }
    },
    togglePanel: next => {
      if (panel === next) {
        setPanel(undefined);
      } else {
        setPanel(next);
        setRevealed(true);
      }
    },
    copy: async () => {
      if (value === undefined) return;
      setCopyStatus((await copyToClipboard(value)) ? 'copied' : 'failed');
    },
  };
}
