import fc from 'fast-check';
import {
  DiffLine,
  LINE_DIFF_LIMITS,
  isMultiLine,
  lineDiff,
  lineDiffHunks,
} from './lineDiff';

/** The text one side of a diff is made of, line breaks included. */
function rebuild(lines: DiffLine[], side: 'before' | 'after'): string {
  const skip = side === 'before' ? 'added' : 'removed';
  return lines
    .filter(line => line.change !== skip)
    .map(line => (line.noNewlineAtEnd ? line.text : `${line.text}\n`))
    .join('');
}

function linesOf(diff: ReturnType<typeof lineDiff>): DiffLine[] {
  if (diff.status !== 'lines') throw new Error(`no lines: ${diff.reason}`);
  return diff.lines;
}

const compact = (lines: DiffLine[]) =>
  lines.map(
    l => `${{ same: ' ', removed: '-', added: '+' }[l.change]}${l.text}`,
  );

/** The length of the longest common subsequence, by the textbook table: the oracle for minimality. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] =
        a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

// Few distinct lines, so that generated values share lines and the search has work to do.
const line = fc.constantFrom('a', 'b', 'c', '', 'a\r', 'password=x');
const text = fc
  .tuple(fc.array(line, { maxLength: 30 }), fc.boolean())
  .map(([lines, finalBreak]) =>
    lines.length === 0 ? '' : lines.join('\n') + (finalBreak ? '\n' : ''),
  );

describe('lineDiff', () => {
  it('marks removed and added lines with unchanged context and line numbers', () => {
    const lines = linesOf(
      lineDiff(
        'host=db\nport=5432\nuser=app\n',
        'host=db\nport=6432\nuser=app\n',
      ),
    );
    expect(compact(lines)).toEqual([
      ' host=db',
      '-port=5432',
      '+port=6432',
      ' user=app',
    ]);
    expect(lines[1]).toMatchObject({ beforeLine: 2 });
    expect(lines[1].afterLine).toBeUndefined();
    expect(lines[2]).toMatchObject({ afterLine: 2 });
    expect(lines[2].beforeLine).toBeUndefined();
    expect(lines[3]).toMatchObject({ beforeLine: 3, afterLine: 3 });
  });

  it('counts added and removed lines', () => {
    const diff = lineDiff('a\nb\nc', 'a\nx\ny\nc');
    expect(diff).toMatchObject({ status: 'lines', added: 2, removed: 1 });
  });

  it('treats a dropped final line break as a change of the last line', () => {
    const lines = linesOf(lineDiff('a\nb\n', 'a\nb'));
    expect(compact(lines)).toEqual([' a', '-b', '+b']);
    expect(lines[1].noNewlineAtEnd).toBeUndefined();
    expect(lines[2].noNewlineAtEnd).toBe(true);
  });

  it('keeps a carriage return as part of its line, as Git does', () => {
    expect(compact(linesOf(lineDiff('a\r\nb\r\n', 'a\nb\r\n')))).toEqual([
      '-a\r',
      '+a',
      ' b\r',
    ]);
  });

  it('compares empty values', () => {
    expect(linesOf(lineDiff('', ''))).toEqual([]);
    expect(compact(linesOf(lineDiff('', 'a\nb\n')))).toEqual(['+a', '+b']);
    expect(compact(linesOf(lineDiff('a\n', '')))).toEqual(['-a']);
  });

  it('answers too different, quickly, for a side with more lines than the limit', () => {
    const many = '\n'.repeat(LINE_DIFF_LIMITS.maxLines + 1);
    const started = Date.now();
    expect(lineDiff(many, 'x')).toEqual({
      status: 'tooDifferent',
      reason: 'tooManyLines',
      limit: LINE_DIFF_LIMITS.maxLines,
    });
    // A hostile 1 MiB value of line breaks alone.
    expect(lineDiff('\n'.repeat(1024 * 1024), '').status).toBe('tooDifferent');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['a\nb\nc', true],
    ['a\nb\nc\n', true],
    ['\n\n\n', true],
    ['a\nb\nc\nd', false],
    ['\n\n\n\n', false],
    ['a\nb\nc\n\n', false],
  ])(
    'counts the lines of %j against a limit of 3 (fits: %s)',
    (value, fits) => {
      const limits = { maxLines: 3, maxEdits: 100 };
      expect(lineDiff(value, '', limits).status).toBe(
        fits ? 'lines' : 'tooDifferent',
      );
      expect(lineDiff('', value, limits).status).toBe(
        fits ? 'lines' : 'tooDifferent',
      );
    },
  );

  it('applies the line limit to exactly the lines it would show (property)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 32 }), (value, maxLines) => {
        const shown = linesOf(lineDiff(value, '')).length;
        expect(lineDiff(value, '', { maxLines, maxEdits: 100 }).status).toBe(
          shown > maxLines ? 'tooDifferent' : 'lines',
        );
      }),
    );
  });

  it('answers too different when more lines differ than the edit limit', () => {
    const before = Array.from({ length: 40 }, (_, i) => `old-${i}`).join('\n');
    const after = Array.from({ length: 40 }, (_, i) => `new-${i}`).join('\n');
    expect(lineDiff(before, after, { maxLines: 100, maxEdits: 79 })).toEqual({
      status: 'tooDifferent',
      reason: 'tooManyEdits',
      limit: 79,
    });
    expect(
      lineDiff(before, after, { maxLines: 100, maxEdits: 80 }),
    ).toMatchObject({ status: 'lines', added: 40, removed: 40 });
  });

  it('stays fast for two completely different values at the limits', () => {
    const lines = LINE_DIFF_LIMITS.maxLines;
    // Long, nearly equal lines: interning keeps each comparison one number.
    const pad = 'x'.repeat(90);
    const before = Array.from({ length: lines }, (_, i) => `${pad}a${i}`).join(
      '\n',
    );
    const after = Array.from({ length: lines }, (_, i) => `${pad}b${i}`).join(
      '\n',
    );
    const started = Date.now();
    expect(lineDiff(before, after).status).toBe('tooDifferent');
    // One changed line in every 20: within the edit limit, so a real search.
    const sparse = Array.from({ length: lines }, (_, i) =>
      i % 20 === 0 ? `${pad}b${i}` : `${pad}a${i}`,
    ).join('\n');
    expect(lineDiff(before, sparse)).toMatchObject({
      status: 'lines',
      added: lines / 20,
      removed: lines / 20,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('rebuilds both sides exactly from its lines (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = linesOf(lineDiff(before, after));
        expect(rebuild(lines, 'before')).toBe(before);
        expect(rebuild(lines, 'after')).toBe(after);
      }),
    );
  });

  it('finds a shortest edit: the unchanged lines are a longest common subsequence (property)', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 25 }),
        fc.array(line, { maxLength: 25 }),
        (a, b) => {
          const diff = lineDiff(
            a.map(l => `${l}\n`).join(''),
            b.map(l => `${l}\n`).join(''),
          );
          const same = linesOf(diff).filter(l => l.change === 'same').length;
          expect(same).toBe(lcs(a, b));
          expect(diff).toMatchObject({
            removed: a.length - same,
            added: b.length - same,
          });
        },
      ),
    );
  });

  it('numbers each side consecutively and shows removed before added in a run (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = linesOf(lineDiff(before, after));
        const numbers = (key: 'beforeLine' | 'afterLine') =>
          lines.map(l => l[key]).filter((n): n is number => n !== undefined);
        const ascending = (ns: number[]) => ns.every((n, i) => n === i + 1);
        expect(ascending(numbers('beforeLine'))).toBe(true);
        expect(ascending(numbers('afterLine'))).toBe(true);
        for (let i = 1; i < lines.length; i++) {
          expect(
            lines[i - 1].change === 'added' && lines[i].change === 'removed',
          ).toBe(false);
        }
      }),
    );
  });

  it('is all unchanged for equal values (property)', () => {
    fc.assert(
      fc.property(text, value => {
        const diff = lineDiff(value, value);
        expect(diff).toMatchObject({ status: 'lines', added: 0, removed: 0 });
      }),
    );
  });
});

describe('lineDiffHunks', () => {
  const numbered = (n: number) =>
    Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

  it('keeps three lines of context around each change and folds the rest', () => {
    const after = numbered(20).replace('line 10', 'line ten');
    const parts = lineDiffHunks(linesOf(lineDiff(numbered(20), after)));
    expect(
      parts.map(p => (p.kind === 'skipped' ? p.count : compact(p.lines))),
    ).toEqual([
      6,
      [
        ' line 7',
        ' line 8',
        ' line 9',
        '-line 10',
        '+line ten',
        ' line 11',
        ' line 12',
        ' line 13',
      ],
      7,
    ]);
  });

  it('joins hunks whose context touches, and folds nothing when all lines are near a change', () => {
    const after = numbered(8)
      .replace('line 1\n', 'line one\n')
      .replace('line 8', 'line eight');
    const parts = lineDiffHunks(linesOf(lineDiff(numbered(8), after)));
    expect(parts).toHaveLength(1);
    expect(parts[0].kind).toBe('lines');
  });

  it('folds every line of an unchanged value (property)', () => {
    fc.assert(
      fc.property(text, value => {
        const lines = linesOf(lineDiff(value, value));
        const parts = lineDiffHunks(lines);
        expect(parts).toEqual(
          lines.length === 0 ? [] : [{ kind: 'skipped', count: lines.length }],
        );
      }),
    );
  });
});

describe('isMultiLine', () => {
  it.each([
    ['one line', false],
    ['one line\n', false],
    ['', false],
    ['two\nlines', true],
    ['\n\n', true],
  ])('%j: %s', (value, expected) => {
    expect(isMultiLine(value)).toBe(expected);
  });
});
