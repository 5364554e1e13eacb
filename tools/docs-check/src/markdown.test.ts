import {
  headingAnchors,
  isExternal,
  markdownLinks,
  navFiles,
  slugify,
} from './markdown';

describe('slugify', () => {
  it.each([
    ['The local control plane', 'the-local-control-plane'],
    ['`./krypton test`: what it runs', 'krypton-test-what-it-runs'],
    ['Versions & history (v2)', 'versions--history-v2'],
    ['snake_case and kebab-case', 'snake_case-and-kebab-case'],
    ['[Linked](x.md) heading', 'linked-heading'],
    ['Ünïcode Überschrift', 'ünïcode-überschrift'],
  ])('%s → %s', (heading, slug) => {
    expect(slugify(heading)).toBe(slug);
  });
});

describe('headingAnchors', () => {
  it('numbers repeated headings, skips code fences and takes HTML ids', () => {
    const markdown = [
      '# Setup',
      '## Setup',
      '```sh',
      '# Not a heading',
      '```',
      '## Setup ##',
      '<a id="custom-anchor"></a>',
    ].join('\n');
    expect([...headingAnchors(markdown)]).toEqual([
      'setup',
      'setup-1',
      'setup-2',
      'custom-anchor',
    ]);
  });
});

describe('markdownLinks', () => {
  it.each([
    ['[a](b.md)', ['b.md']],
    ['[a](b.md#c) and ![img](d.png "title")', ['b.md#c', 'd.png']],
    ['[a](#anchor)', ['#anchor']],
    ['[a](<with space.md>)', ['with space.md']],
    ['[![badge](x.svg)](y.md)', ['x.svg', 'y.md']],
    ['`[a](in-code.md)` and ``[b](`in-code`.md)``', []],
    ['```md\n[a](in-fence.md)\n```\n[b](after.md)', ['after.md']],
    ['a `code\nspan [x](y.md)` over two lines', []],
    ['f(x) and [not a link] (z.md)', []],
  ])('%j', (markdown, targets) => {
    expect(markdownLinks(markdown).map(link => link.target)).toEqual(targets);
  });

  it('gives the line of each link', () => {
    expect(
      markdownLinks('x\n\n[a](b.md)\n```\n[c](d.md)\n```\n[e](f.md)'),
    ).toEqual([
      { line: 3, target: 'b.md' },
      { line: 7, target: 'f.md' },
    ]);
  });
});

describe('isExternal and navFiles', () => {
  it.each([
    ['https://example.org', true],
    ['mailto:someone@example.org', true],
    ['docs/api.md', false],
    ['#anchor', false],
  ])('isExternal(%s) is %s', (target, external) => {
    expect(isExternal(target)).toBe(external);
  });

  it('flattens a nav', () => {
    expect(
      navFiles([
        { Home: 'index.md' },
        'loose.md',
        { Group: [{ A: 'a.md' }, { Link: 'https://example.org' }] },
      ]),
    ).toEqual(['index.md', 'loose.md', 'a.md']);
  });
});
