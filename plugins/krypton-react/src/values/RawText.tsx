import { useMemo } from 'react';
import { useValuesHost } from './host';

/** The code units of whole lines that one block of a long text holds, at least. */
export const RAW_BLOCK_UNITS = 8192;

/** A block of a long raw text: whole lines, and an estimate of how many lines it shows. */
export interface RawBlock {
  text: string;
  /** Lines, counting a long line as one per 100 code units (it wraps at an unknown width). */
  lines: number;
}

/**
 * A text cut after the first line break that follows every RAW_BLOCK_UNITS code units, so that
 * joined again the blocks are the text. Only a line break ends a block: a line is never split,
 * neither a surrogate pair (a text without line breaks is one block). Linear in the text.
 */
export function rawBlocks(text: string, size = RAW_BLOCK_UNITS): RawBlock[] {
  const blocks: RawBlock[] = [];
  let start = 0;
  while (start < text.length) {
    const newline =
      text.length - start > size ? text.indexOf('\n', start + size - 1) : -1;
    const end = newline < 0 ? text.length : newline + 1;
    let lines = 0;
    for (let from = start; from < end; ) {
      const next = text.indexOf('\n', from);
      const lineEnd = next < 0 || next >= end ? end : next;
      lines += Math.max(1, Math.ceil((lineEnd - from) / 100));
      from = lineEnd + 1;
    }
    blocks.push({ text: text.slice(start, end), lines });
    start = end;
  }
  return blocks;
}

export interface RawTextProps {
  text: string;
  /** The accessible name of the block, e.g. "Raw value of password". */
  label: string;
}

/**
 * Text exactly as given. React escapes it, so markup inside stays inert. Focusable, because a long
 * value scrolls and keyboard users must be able to scroll it.
 *
 * A long text is shown in blocks of whole lines, each laid out only when it is scrolled near: the
 * browser laid out all 131,072 code units of a value at the preview limit to show the 480 px of
 * it in view (the preview bench's raw text: 61 ms in one block, 38 ms in blocks, in the production
 * build). Each block's height is estimated from its lines until it has been laid out once. The
 * text is the same, and so is a selection of it: a block ends with its line break, so copying
 * adds none.
 */
export const RawText = ({ text, label }: RawTextProps) => {
  const { classes } = useValuesHost();
  const blocks = useMemo(
    () => (text.length > RAW_BLOCK_UNITS ? rawBlocks(text) : undefined),
    [text],
  );
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <pre className={classes.raw} role="group" aria-label={label} tabIndex={0}>
      {blocks
        ? blocks.map((block, i) => (
            <span
              key={i}
              className={classes.rawBlock}
              style={{ containIntrinsicBlockSize: `auto ${block.lines}lh` }}
            >
              {block.text}
            </span>
          ))
        : text}
    </pre>
  );
};
