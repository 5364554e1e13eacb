import { englishT } from '../../__testUtils__/englishT';
import { parseBulk as parseBulkIn, planBulk } from './bulkParse';

const t = englishT();
const parseBulk = (text: string) => parseBulkIn(text, t);

const entriesOf = (text: string) => ({ ...parseBulk(text).entries });

describe('parseBulk', () => {
  it('reads KEY=value lines, skipping blank lines and comments', () => {
    const result = parseBulk(
      '# database\n\nDB_USER=app\n  # indented comment\nDB_PASS=s3cret\n',
    );
    expect(result.issues).toEqual([]);
    expect(result.keys).toEqual(['DB_USER', 'DB_PASS']);
    expect(entriesOf('DB_USER=app\nDB_PASS=s3cret')).toEqual({
      DB_USER: 'app',
      DB_PASS: 's3cret',
    });
  });

  it('accepts export prefixes and CRLF line ends', () => {
    expect(entriesOf('export A=1\r\nexport\tB=2\r\nexport=3')).toEqual({
      A: '1',
      B: '2',
      export: '3',
    });
  });

  it('strips one pair of matching quotes and nothing else', () => {
    expect(
      entriesOf(
        [
          'A="double quoted"',
          "B='single quoted'",
          'C=  spaced  ',
          'D=" keeps inner spaces "',
          'E="a\\nb"',
          'F=pa#ss # not a comment',
          'G=',
          'H=""',
          'I=x=y',
        ].join('\n'),
      ),
    ).toEqual({
      A: 'double quoted',
      B: 'single quoted',
      C: 'spaced',
      D: ' keeps inner spaces ',
      E: 'a\\nb',
      F: 'pa#ss # not a comment',
      G: '',
      H: '',
      I: 'x=y',
    });
  });

  it('drops a leading byte order mark so it does not join the first key', () => {
    expect(parseBulk('\uFEFFA=1').keys).toEqual(['A']);
  });

  it('reports every line it cannot read, with its number and without values', () => {
    const result = parseBulk(
      [
        'GOOD=1',
        'no equals sign here',
        'bad key=hunter2',
        '=orphan-value',
        'OPEN="unterminated',
        'GOOD=2',
        '..=x',
      ].join('\n'),
    );
    expect(result.keys).toEqual(['GOOD']);
    expect(result.issues.map(i => i.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(result.issues[0].message).toBe('Expected KEY=value.');
    expect(result.issues[1].message).toMatch(/^"bad key": Invalid key/);
    expect(result.issues[2].message).toBe('The key is empty.');
    expect(result.issues[3].message).toMatch(/"OPEN".*quote/);
    expect(result.issues[4].message).toBe('"GOOD" is given more than once.');
    const all = result.issues.map(i => i.message).join('\n');
    for (const value of ['hunter2', 'orphan-value', 'unterminated']) {
      expect(all).not.toContain(value);
    }
  });

  it('shortens a very long key in a report', () => {
    const long = `${'k '.repeat(100)}=v`;
    const [issue] = parseBulk(long).issues;
    expect(issue.message.length).toBeLessThan(200);
  });

  it('treats __proto__ and constructor as ordinary keys', () => {
    const result = parseBulk('__proto__=a\nconstructor=b');
    expect(result.issues).toEqual([]);
    expect(Object.keys(result.entries)).toEqual(['__proto__', 'constructor']);
    expect(
      Object.getOwnPropertyDescriptor(result.entries, '__proto__')?.value,
    ).toBe('a');
  });
});

describe('planBulk', () => {
  const current = { KEEP: 'same', CHANGE: 'old', GONE: 'x' };
  const parsed = parseBulk('KEEP=same\nCHANGE=new\nNEW=1');

  it('merges by default semantics: unmentioned keys stay', () => {
    const plan = planBulk(current, parsed, 'merge');
    expect(plan).toMatchObject({
      added: ['NEW'],
      changed: ['CHANGE'],
      unchanged: ['KEEP'],
      removed: [],
    });
    expect({ ...plan.result }).toEqual({
      KEEP: 'same',
      CHANGE: 'new',
      GONE: 'x',
      NEW: '1',
    });
  });

  it('removes unmentioned text keys when replacing all', () => {
    const plan = planBulk(current, parsed, 'replace');
    expect(plan.removed).toEqual(['GONE']);
    expect({ ...plan.result }).toEqual({
      KEEP: 'same',
      CHANGE: 'new',
      NEW: '1',
    });
  });

  it('does not mistake inherited names for existing keys', () => {
    const plan = planBulk({}, parseBulk('constructor=1\ntoString=2'), 'merge');
    expect(plan.added).toEqual(['constructor', 'toString']);
  });
});
