import MarkdownIt from 'markdown-it';
import { analyseBrackets, skipUnclosableBrackets } from './markdownBrackets';

/** The preview's parser settings (markdownParse.ts), with or without the rule. */
function parser(withRule: boolean): MarkdownIt {
  const md = new MarkdownIt('commonmark', {
    html: true,
    linkify: false,
    typographer: false,
  });
  md.validateLink = () => true;
  md.normalizeLink = url => url;
  if (withRule) skipUnclosableBrackets(md);
  return md;
}

/** Every field of every token, children included, except source line numbers. */
const tokensOf = (md: MarkdownIt, text: string) =>
  JSON.stringify(md.parse(text, {}), (key, value) =>
    key === 'map' ? undefined : value,
  );

/** A deterministic pseudo-random generator (a 32-bit linear congruential one). */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 16) % n;
  };
}

describe('analyseBrackets', () => {
  it('marks the openers left unmatched, escaped brackets left out', () => {
    const { unmatched } = analyseBrackets('[a [b] \\[ c \\] [');
    expect(
      Array.from(unmatched.keys()).filter(i => unmatched[i] === 1),
    ).toEqual([0, 15]);
  });

  it('stops before the last character that can end a construct hiding a bracket', () => {
    // A run of backticks whose length occurs twice can close a code span; a lone one cannot.
    expect(analyseBrackets('[ ` x').lastHider).toBe(-1);
    expect(analyseBrackets('` [ ` x').lastHider).toBe(4);
    expect(analyseBrackets('`` [ ` x').lastHider).toBe(-1);
    // A `>` after a `<`, a `)` after a `](`.
    expect(analyseBrackets('[ > <').lastHider).toBe(-1);
    expect(analyseBrackets('< [ >').lastHider).toBe(4);
    expect(analyseBrackets('[ (a)').lastHider).toBe(-1);
    expect(analyseBrackets('[a]( [ )').lastHider).toBe(7);
  });
});

describe('skipUnclosableBrackets', () => {
  const L = 131_072;
  const fill = (unit: string) =>
    unit.repeat(Math.ceil(L / unit.length)).slice(0, L);

  it('never scans for the label of an opener that cannot close', () => {
    // 131,072 code units of unclosed "![" cost markdown-it a label scan per opener, each
    // recursing into the openers after it (about 1.4 s in the browser). Text → label scans.
    const hostile: Array<[string, number]> = [
      [fill('!['), 0],
      [fill('[a'), 0],
      [fill(')['), 0],
      // A lone backtick cannot end a code span.
      [`${'!['.repeat(L / 2 - 1)}\``, 0],
      // Only the last opener can close: as an image, then as a link.
      [`${'!['.repeat(L / 2 - 1)}]`, 2],
    ];
    const md = parser(true);
    const scans = jest.spyOn(md.helpers, 'parseLinkLabel');
    for (const [text, expected] of hostile) {
      scans.mockClear();
      md.parse(text, {});
      expect(scans).toHaveBeenCalledTimes(expected);
    }

    const plain = parser(false);
    const plainScans = jest.spyOn(plain.helpers, 'parseLinkLabel');
    plain.parse(fill('!['), {});
    expect(plainScans.mock.calls.length).toBeGreaterThan(L / 4);
  });

  it('still parses every link and image that can close', () => {
    const md = parser(true);
    const scans = jest.spyOn(md.helpers, 'parseLinkLabel');
    const tokens = md.parse('[a](https://x.example) ![b](c) [[d]] [', {})[1]
      .children!;
    expect(tokens.map(token => token.type)).toEqual([
      'link_open',
      'text',
      'link_close',
      'text',
      'image',
      'text',
    ]);
    expect(scans).toHaveBeenCalled();
  });

  it('gives the same tokens as markdown-it alone', () => {
    const md = parser(true);
    const plain = parser(false);
    const documents = [
      '# Title\n\nSee the [guide](https://example.com/g "Guide") and ![a *diagram*](d.png).',
      '[ref]\n\n[ref]: https://example.com/r\n\n[full][ref] and [collapsed][] and [ref]',
      '[a `]` b](u) [c <x]> d](u) [e \\] f](u) [g](u "]") [h](<u]>)',
      '[a `[` b]\n\n[a `[` b]: https://example.com\n\n[x [y] z](u) [[nested](u)](v)',
      '- [ ] todo\n- [x] done [link](https://example.com)\n\n> [quoted](u) [',
      '`code [` [ `` ` `` [` <b>[</b> <http://a/[> [\\`](u)',
      '![[a]](u) ![a [b](c) d](e) ![![x](y)](z) [![badge](b.svg)](https://ci)',
    ];
    for (const text of documents) {
      expect(tokensOf(md, text)).toBe(tokensOf(plain, text));
    }
    // And on random texts of the characters that matter.
    const pieces = [
      '[',
      ']',
      '![',
      '(',
      ')',
      '\\',
      '`',
      '``',
      '<',
      '>',
      'a',
      ' ',
      '\n',
      '*',
      '"',
      '](',
      '[x]: /u\n',
      '\n\n',
      '<a href="',
      '&#91;',
      '!',
      '<http://a',
    ];
    const next = random(19);
    let links = 0;
    for (let n = 0; n < 5000; n++) {
      let text = '';
      const length = 1 + next(30);
      for (let i = 0; i < length; i++) text += pieces[next(pieces.length)];
      const tokens = tokensOf(md, text);
      expect([text, tokens]).toEqual([text, tokensOf(plain, text)]);
      if (tokens.includes('"link_open"') || tokens.includes('"image"')) links++;
    }
    // The texts are varied enough to hold links and images.
    expect(links).toBeGreaterThan(100);
  });
});
