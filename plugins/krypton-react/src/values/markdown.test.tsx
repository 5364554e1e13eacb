import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/core';
import { renderValues } from '../__testUtils__/renderValues';
import { screen, waitFor } from '@testing-library/react';
import MarkdownIt, { type Options } from 'markdown-it';
import { MarkdownPreview } from './markdown';
import { skipUnclosableBrackets } from './markdownBrackets';
import {
  MAX_ELEMENTS,
  MAX_NESTING,
  parseMarkdown,
  tokenSteps,
} from './markdownParse';

/** A value of exactly the preview limit, made of `unit` repeated. */
const fill = (unit: string) =>
  unit
    .repeat(Math.ceil(PREVIEW_LIMIT_CODE_UNITS / unit.length))
    .slice(0, PREVIEW_LIMIT_CODE_UNITS);

const reasonOf = (text: string) => {
  const parsed = parseMarkdown(text);
  return parsed.ok ? 'ok' : parsed.reason;
};

/** markdown-it's parse, with the preview's settings (markdownParse.ts), in one call. */
function oneShotTokens(text: string): string {
  const options: Options & { maxNesting: number } = {
    html: true,
    linkify: false,
    typographer: false,
    maxNesting: MAX_NESTING,
  };
  const md = new MarkdownIt('commonmark', options);
  md.validateLink = () => true;
  md.normalizeLink = url => url;
  skipUnclosableBrackets(md);
  return JSON.stringify(md.parse(text, {}));
}

/** tokenSteps run to the end, and how many times it yielded. */
function steppedTokens(text: string): { tokens: string; yields: number } {
  const steps = tokenSteps(text);
  for (let yields = 0; ; yields++) {
    const step = steps.next();
    if (step.done) return { tokens: JSON.stringify(step.value), yields };
  }
}

describe('tokenSteps', () => {
  it("gives markdown-it's own tokens, a few blocks at a time", () => {
    const texts = [
      // A reference used before its definition: the block phase collects every definition first.
      '[early][ref] and ![img][ref]\n\n[ref]: https://example.com/r "T"\n',
      'Escapes \\* \\[ and entities &amp; &#106; &copy; join their text.\n',
      '> quote *em* **strong** `code` <b>html</b> <https://auto.example/>\n> - list\n',
      '- [ ] a\n  1. b\n     ```js\n     code\n     ```\n\n***\n\nSetext\n---\n',
      fill('!['),
      fill('*a'),
    ];
    const alphabet = [
      '[',
      ']',
      '(',
      ')',
      '!',
      '*',
      '_',
      '`',
      '<',
      '>',
      '\\',
      '&',
      '#',
      '-',
      ' ',
      '\n',
      'a',
      ':',
    ];
    let state = 7;
    for (let t = 0; t < 300; t++) {
      let text = '';
      for (let i = 0; i < 200; i++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        text += alphabet[(state >>> 16) % alphabet.length];
      }
      texts.push(text);
    }
    for (const text of texts) {
      expect(steppedTokens(text).tokens).toBe(oneShotTokens(text));
    }
    const long = Array.from(
      { length: 400 },
      (_, i) =>
        `## Section ${i}\n\nText of *section* ${i}, [link](https://x.example/${i}).\n`,
    ).join('\n');
    const { tokens, yields } = steppedTokens(long);
    expect(tokens).toBe(oneShotTokens(long));
    // After the block structure, and then every 2,048 code units of inline markup or so.
    expect(yields).toBeGreaterThan(5);
  });
});

describe('parseMarkdown', () => {
  it('counts rendered elements against a fixed budget', () => {
    // A tight list item is one element: its paragraph is not rendered.
    const items = (n: number) => '- a\n'.repeat(n);
    expect(reasonOf(items(MAX_ELEMENTS - 1))).toBe('ok');
    expect(reasonOf(items(MAX_ELEMENTS))).toBe('elements');
    const parsed = parseMarkdown(items(10));
    expect(parsed.ok && parsed.document.elements).toBe(11);
  });

  it('refuses containers nested to the cap instead of showing a part', () => {
    const quotes = (n: number) => `${'> '.repeat(n)}deep\n\nafter\n`;
    expect(reasonOf(quotes(MAX_NESTING - 2))).toBe('ok');
    expect(reasonOf(quotes(MAX_NESTING - 1))).toBe('nesting');
    expect(reasonOf(fill('>'))).toBe('nesting');
    expect(reasonOf(fill('- '))).toBe('ok');
  });

  it('keeps a large code block whatever its lines look like', () => {
    // Diff lines, prompts, numbered output and brackets: the old cutoffs counted them all.
    const line = '- [old] value\n+ [new] value\n> echo [x]\n1. [y]\n';
    const body = line.repeat(
      Math.floor((PREVIEW_LIMIT_CODE_UNITS - 20) / line.length),
    );
    const text = `# Diff\n\n\`\`\`\n${body}\`\`\`\n`;
    const parsed = parseMarkdown(text);
    expect(parsed.ok && parsed.document.elements).toBe(2);
  });

  it('parses hostile shapes at the size limit, or refuses them for their size', () => {
    for (const unit of [']', '[', '![', '[]', '_a', '`', '<a', '&#', '\\']) {
      expect(reasonOf(fill(unit))).toBe('ok');
    }
    // 65,536 emphasised letters.
    expect(reasonOf(fill('*a'))).toBe('elements');
  });

  it('splits a long document into slices of top-level blocks, in order', () => {
    const text = Array.from(
      { length: 400 },
      (_, i) => `## Section ${i}\n\n- one\n- two\n- three\n`,
    ).join('\n');
    const parsed = parseMarkdown(text);
    if (!parsed.ok) throw new Error('not parsed');
    const { slices } = parsed.document;
    expect(slices.length).toBeGreaterThan(1);
    const headings = slices
      .flat()
      .filter(piece => piece.block.token.type === 'heading_open');
    expect(headings.map(piece => piece.index)).toEqual(
      Array.from({ length: 400 }, (_, i) => i * 2),
    );
    expect(headings[399].block.children[0].children[0].token.content).toBe(
      'Section 399',
    );
  });

  it('splits a long top-level list into ranges of its items', () => {
    const parsed = parseMarkdown(`# Hosts\n\n${'- host\n'.repeat(5000)}`);
    if (!parsed.ok) throw new Error('not parsed');
    const ranges = parsed.document.slices
      .flat()
      .filter(piece => piece.index === 1)
      .map(piece => piece.range!);
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges[0].from).toBe(0);
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i].from).toBe(ranges[i - 1].to);
    }
    expect(ranges[ranges.length - 1].to).toBe(5000);
  });
});

describe('MarkdownPreview', () => {
  it('renders every slice, then says it is no longer busy', async () => {
    const text = Array.from(
      { length: 400 },
      (_, i) => `## Section ${i}\n\nText of *section* ${i}.\n`,
    ).join('\n');
    const { container } = await renderValues(<MarkdownPreview text={text} />);
    const parsed = parseMarkdown(text);
    expect(parsed.ok && parsed.document.slices.length).toBeGreaterThan(1);
    await screen.findByRole('heading', { name: 'Section 399' });
    await waitFor(() =>
      expect(container.querySelector('[aria-busy="false"]')).not.toBeNull(),
    );
    expect(container.querySelectorAll('h2')).toHaveLength(400);
    expect(container.querySelectorAll('em')).toHaveLength(400);
  });

  it('renders a list split over slices as one list with every item', async () => {
    const text = `# Hosts\n\n${Array.from(
      { length: 3000 },
      (_, i) => `- host ${i}\n`,
    ).join('')}`;
    const { container } = await renderValues(<MarkdownPreview text={text} />);
    await waitFor(
      () =>
        expect(container.querySelector('[aria-busy="false"]')).not.toBeNull(),
      { timeout: 10_000 },
    );
    expect(container.querySelectorAll('ul')).toHaveLength(1);
    const items = container.querySelectorAll('ul > li');
    expect(items).toHaveLength(3000);
    expect(items[2999].textContent).toBe('host 2999');
  });

  it('keeps entity-encoded, autolinked and upper-case unsafe schemes inert', async () => {
    const text = [
      '[entity](&#106;avascript:alert(1))',
      '[upper](JAVASCRIPT:alert(2))',
      '<javascript:alert(3)>',
      '[spaced]( javascript:alert(4) )',
      '[protocol-relative](//evil.example/x)',
      '[titled](https://example.com/t "A title")',
    ].join('\n\n');
    const { container } = await renderValues(<MarkdownPreview text={text} />);
    await screen.findByText('entity');
    for (const name of ['entity', 'upper', 'spaced', 'protocol-relative']) {
      expect(screen.getByText(name).closest('a')).toBeNull();
    }
    // The test looks for the unsafe scheme on purpose.
    // eslint-disable-next-line no-script-url
    expect(screen.getByText('javascript:alert(3)').closest('a')).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(1);
    const titled = screen.getByRole('link', { name: 'titled' });
    expect(titled).toHaveAttribute('href', 'https://example.com/t');
    expect(titled).toHaveAttribute('title', 'A title');
    expect(titled).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows raw HTML as code and never lets markup reach an attribute', async () => {
    const text = [
      '```bash onload="alert(1)" class="x"',
      'echo hi',
      '```',
      '',
      '```"><img src=x onerror=alert(2)>',
      'echo there',
      '```',
      '',
      'Text with <a href="javascript:alert(3)">inline html</a> inside.',
      '',
      '<div onclick="alert(4)">',
      '*not emphasis*',
      '</div>',
      '',
      '![alt *with* `code`](javascript:alert(5) "title")',
    ].join('\n');
    const { container } = await renderValues(<MarkdownPreview text={text} />);
    await screen.findByText(/^Image: alt with code/);
    const codes = Array.from(container.querySelectorAll('pre code'));
    expect(codes.map(code => code.className)).toEqual([
      'language-bash',
      '',
      '',
    ]);
    expect(container.querySelector('img, div[onclick], a')).toBeNull();
    expect(screen.getByText('<a href="javascript:alert(3)">').tagName).toBe(
      'CODE',
    );
    expect(codes[2].textContent).toContain('*not emphasis*');
    expect(
      screen.getByText(
        'Image: alt with code (javascript:alert(5)) — not loaded',
      ),
    ).toBeInTheDocument();
  });

  it('explains why a value too deeply nested is shown raw', async () => {
    const text = `${'> '.repeat(MAX_NESTING)}deep`;
    await renderValues(<MarkdownPreview text={text} />);
    expect(
      await screen.findByText(/nests quotes or lists too deeply/),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'Raw Markdown text' }).textContent,
    ).toBe(text);
  });
});
