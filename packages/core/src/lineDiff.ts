/**
 * What happens to one line from `before` to `after`.
 *
 * @public
 */
export type LineChange = 'same' | 'removed' | 'added';

/**
 * One line of a line diff, numbered on the sides it is on.
 *
 * @public
 */
export interface DiffLine {
  /** same: on both sides; removed: only before; added: only after. */
  change: LineChange;
  /** The line without its line break. */
  text: string;
  /** 1-based line number in `before`; set for same and removed lines. */
  beforeLine?: number;
  /** 1-based line number in `after`; set for same and added lines. */
  afterLine?: number;
  /** The last line of its value, without a line break after it (Git's "No newline at end of file"). */
  noNewlineAtEnd?: true;
}

/**
 * A line-level comparison, or why there is none: a value with more lines than the limit, or two
 * values further apart than the edit limit, are "too different" and shown whole instead.
 *
 * @public
 */
export type LineDiff =
  | {
      status: 'lines';
      lines: DiffLine[];
      added: number;
      removed: number;
    }
  | {
      status: 'tooDifferent';
      /** tooManyLines: a side has more lines than maxLines; tooManyEdits: more than maxEdits differ. */
      reason: 'tooManyLines' | 'tooManyEdits';
      limit: number;
    };

/**
 * The bounds of one line diff, whatever its input.
 *
 * @public
 */
export interface LineDiffLimits {
  /** The most lines either side may have. */
  maxLines: number;
  /** The most added plus removed lines a comparison may find before it gives up. */
  maxEdits: number;
}

/**
 * Bounds that keep a comparison of two 1 MiB values well under a second on a slow machine: the
 * search costs at most about (2 × maxLines) × maxEdits steps and (maxEdits)² numbers of memory.
 *
 * @public
 */
export const LINE_DIFF_LIMITS: LineDiffLimits = {
  maxLines: 10_000,
  maxEdits: 1_000,
};

interface Line {
  text: string;
  noNewlineAtEnd: boolean;
}

/**
 * A value's lines, split at "\n" only (a "\r" stays part of its line, as in Git). A final line
 * break ends the last line rather than starting an empty one; a value that does not end with one
 * has its last line marked, so that adding or removing that break is a change too.
 */
function splitLines(text: string): Line[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const endsWithBreak = parts[parts.length - 1] === '';
  if (endsWithBreak) parts.pop();
  return parts.map((part, i) => ({
    text: part,
    noNewlineAtEnd: !endsWithBreak && i === parts.length - 1,
  }));
}

/** Whether text has more than max lines, counted only as far as needed, without splitting it. */
function exceedsLines(text: string, max: number): boolean {
  let breaks = 0;
  for (
    let at = text.indexOf('\n');
    at !== -1;
    at = text.indexOf('\n', at + 1)
  ) {
    breaks++;
    // n breaks make at least n lines.
    if (breaks > max) return true;
  }
  // n breaks make n lines when the last one ends the text, else n + 1 (none for an empty text).
  return breaks + (text === '' || text.endsWith('\n') ? 0 : 1) > max;
}

/**
 * Whether a text value has more than one line, and so a line diff worth showing.
 *
 * @public
 */
export function isMultiLine(text: string): boolean {
  const at = text.indexOf('\n');
  return at !== -1 && at !== text.length - 1;
}

/** Equal lines get equal numbers, so the search compares numbers, not strings of any length. */
function intern(
  before: Line[],
  after: Line[],
): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const idOf = (line: Line) => {
    // The prefix keeps "x" without a final break apart from "x" with one.
    const key = `${line.noNewlineAtEnd ? '1' : '0'}${line.text}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
  return {
    a: Int32Array.from(before, idOf),
    b: Int32Array.from(after, idOf),
  };
}

type Step = 'same' | 'removed' | 'added';

/**
 * Myers' O(ND) shortest edit script between a and b, or undefined when it needs more than
 * maxEdits edits. Each round's furthest reaches are kept (only the diagonals that round could
 * touch) so that the path can be walked back.
 */
function shortestEdit(
  a: Int32Array,
  b: Int32Array,
  maxEdits: number,
): Step[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1]
          : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    // Round d's reaches sit on diagonals -d..d: reach of k is at index k + d.
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  if (found < 0) return undefined;

  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const previous = trace[d - 1];
    const reach = (k: number) => previous[k + d - 1];
    const k = x - y;
    const down = k === -d || (k !== d && reach(k - 1) < reach(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = reach(prevK);
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    const startY = down ? prevY + 1 : prevY;
    while (x > startX && y > startY) {
      steps.push('same');
      x--;
      y--;
    }
    steps.push(down ? 'added' : 'removed');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    steps.push('same');
    x--;
    y--;
  }
  return steps.reverse();
}

/**
 * Within each run of changed lines, removed lines come before added ones, as Git shows them.
 * Reordering inside a run keeps the script valid: no unchanged line sits between them.
 */
function removedFirst(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.change === 'removed') removed.push(line);
    else if (line.change === 'added') added.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

/**
 * The line-level changes from `before` to `after`, for text values. Bounded whatever the input:
 * more lines than `limits.maxLines` on either side, or more than `limits.maxEdits` changed lines,
 * answer "too different" instead of a search that could freeze a page.
 *
 * @public
 */
export function lineDiff(
  before: string,
  after: string,
  limits: LineDiffLimits = LINE_DIFF_LIMITS,
): LineDiff {
  if (
    exceedsLines(before, limits.maxLines) ||
    exceedsLines(after, limits.maxLines)
  ) {
    return {
      status: 'tooDifferent',
      reason: 'tooManyLines',
      limit: limits.maxLines,
    };
  }
  const from = splitLines(before);
  const to = splitLines(after);
  const { a, b } = intern(from, to);

  // Lines shared at both ends need no search, which keeps typical edits cheap.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const middle = shortestEdit(
    a.subarray(head, a.length - tail),
    b.subarray(head, b.length - tail),
    limits.maxEdits,
  );
  if (!middle) {
    return {
      status: 'tooDifferent',
      reason: 'tooManyEdits',
      limit: limits.maxEdits,
    };
  }

  const steps: Step[] = [
    ...new Array<Step>(head).fill('same'),
    ...middle,
    ...new Array<Step>(tail).fill('same'),
  ];
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  for (const step of steps) {
    const source = step === 'added' ? to[j] : from[i];
    const line: DiffLine = { change: step, text: source.text };
    if (step !== 'added') line.beforeLine = ++i;
    if (step !== 'removed') line.afterLine = ++j;
    if (source.noNewlineAtEnd) line.noNewlineAtEnd = true;
    if (step === 'added') added++;
    if (step === 'removed') removed++;
    lines.push(line);
  }
  return { status: 'lines', lines: removedFirst(lines), added, removed };
}

/**
 * A stretch of a line diff as shown: changed lines with their context, or unchanged lines left out.
 *
 * @public
 */
export type LineDiffPart =
  | { kind: 'lines'; lines: DiffLine[] }
  | { kind: 'skipped'; count: number };

/**
 * The diff as Git shows it: each change with up to `context` unchanged lines around it, and the
 * unchanged lines between such hunks folded into a count.
 *
 * @public
 */
export function lineDiffHunks(
  lines: readonly DiffLine[],
  context = 3,
): LineDiffPart[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.change === 'same') return;
    const from = Math.max(0, index - context);
    const to = Math.min(lines.length - 1, index + context);
    for (let k = from; k <= to; k++) keep[k] = true;
  });
  const parts: LineDiffPart[] = [];
  let index = 0;
  while (index < lines.length) {
    const start = index;
    const kept = keep[index];
    while (index < lines.length && keep[index] === kept) index++;
    parts.push(
      kept
        ? { kind: 'lines', lines: lines.slice(start, index) }
        : { kind: 'skipped', count: index - start },
    );
  }
  return parts;
}
