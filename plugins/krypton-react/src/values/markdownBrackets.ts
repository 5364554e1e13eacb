import type MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';

/**
 * markdown-it tries every `[` (and `![`) as a link by scanning ahead for its `]`, recursing into
 * each `[` it meets up to its nesting cap. That is linear, but with a cost of about 64 rule calls
 * per opener: 131,072 code units of unclosed `![` took 342 ms in Node and over a second in the
 * browser. This rule answers first for the openers that cannot close, with exactly what
 * markdown-it makes of them after its scan: the character as text.
 *
 * An opener cannot close when, matching the brackets of its block like parentheses (escaped ones
 * left out, as markdown-it leaves them out), it is left unmatched. That is exact only where no
 * other construct can hide a bracket from the scan, so it is applied only to openers after the last
 * character that can end one: a run of backticks whose length occurs twice (a code span), a `>`
 * after a `<` (an autolink or raw HTML), a `)` after a `](` (the destination and title of an
 * inline link). A construct that hides a bracket after the opener ends after it.
 */

// The characters that a backslash escapes in markdown-it (its rules_inline/escape).
const ESCAPABLE = new Set('\\!"#$%&\'()*+,./:;<=>?@[]^_`{|}~-');

interface Brackets {
  /** 1 at the position of each `[` left unmatched. */
  unmatched: Uint8Array;
  /** Openers at or before this position may be hidden from the scan: markdown-it decides. */
  lastHider: number;
}

/** One linear pass over a block's inline source. */
export function analyseBrackets(src: string): Brackets {
  const unmatched = new Uint8Array(src.length);
  const open: number[] = [];
  // Backtick runs by length: a code span opens and closes with two runs of one length.
  const runs = new Map<number, { count: number; last: number }>();
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    // A backtick after a backslash still counts towards the runs: in a code span, a backslash
    // is literal.
    const next = src[i + 1];
    if (
      ch === '\\' &&
      next !== '`' &&
      next !== undefined &&
      ESCAPABLE.has(next)
    ) {
      i++;
    } else if (ch === '[') {
      open.push(i);
    } else if (ch === ']') {
      open.pop();
    } else if (ch === '`') {
      let end = i + 1;
      while (src[end] === '`') end++;
      const run = runs.get(end - i) ?? { count: 0, last: -1 };
      runs.set(end - i, { count: run.count + 1, last: end - 1 });
      i = end - 1;
    }
  }
  for (const position of open) unmatched[position] = 1;
  let lastHider = -1;
  for (const run of runs.values()) {
    if (run.count > 1) lastHider = Math.max(lastHider, run.last);
  }
  // A `>` closes an autolink or a tag only after a `<`, a `)` a link's tail only after a `](`.
  const lastAngle = src.lastIndexOf('>');
  if (lastAngle > src.indexOf('<') && src.includes('<')) {
    lastHider = Math.max(lastHider, lastAngle);
  }
  const tail = src.indexOf('](');
  const lastParen = src.lastIndexOf(')');
  if (tail !== -1 && lastParen > tail)
    lastHider = Math.max(lastHider, lastParen);
  return { unmatched, lastHider };
}

// One analysis per inline block: markdown-it keeps one state object per block, nested link
// labels included.
const analyses = new WeakMap<StateInline, Brackets>();

function cannotClose(state: StateInline, bracket: number): boolean {
  let brackets = analyses.get(state);
  if (!brackets) {
    brackets = analyseBrackets(state.src);
    analyses.set(state, brackets);
  }
  return bracket > brackets.lastHider && brackets.unmatched[bracket] === 1;
}

/**
 * Installs the rule before markdown-it's link and image rules. It consumes one character at a
 * time, as markdown-it's own fallback does (its label scan counts a `[` as one character), so the
 * tokens are the same with and without it.
 */
export function skipUnclosableBrackets(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'unclosable_bracket', (state, silent) => {
    const { pos } = state;
    const ch = state.src[pos];
    const bracket = ch === '!' ? pos + 1 : pos;
    if (
      (ch !== '[' && !(ch === '!' && state.src[bracket] === '[')) ||
      !cannotClose(state, bracket)
    ) {
      return false;
    }
    if (!silent) state.pending += ch;
    state.pos = pos + 1;
    return true;
  });
}
