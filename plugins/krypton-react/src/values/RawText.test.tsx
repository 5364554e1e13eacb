import { renderValues } from '../__testUtils__/renderValues';
import { screen } from '@testing-library/react';
import { RAW_BLOCK_UNITS, RawText, rawBlocks } from './RawText';

/** A deterministic text of lines of 0–199 code units, some of them emoji (surrogate pairs). */
function lines(length: number, seed: number): string {
  let text = '';
  let x = seed;
  while (text.length < length) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const size = x % 200;
    text += `${'a😀 '.repeat(Math.floor(size / 4))}\n`;
  }
  return text.slice(0, length);
}

describe('rawBlocks', () => {
  it('cuts a text into blocks of whole lines that join to the text', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const text = lines(50_000 + seed * 997, seed);
      const blocks = rawBlocks(text, 4096);
      expect(blocks.map(b => b.text).join('')).toBe(text);
      expect(blocks.length).toBeGreaterThan(5);
      blocks.slice(0, -1).forEach(({ text: block }) => {
        // At least the size, then up to and with the next line break, and no further.
        expect(block.length).toBeGreaterThanOrEqual(4096);
        expect(block.endsWith('\n')).toBe(true);
        expect(block.slice(4095, -1)).not.toContain('\n');
      });
    }
  });

  it('never splits a line, so never a surrogate pair either', () => {
    const text = `${'😀'.repeat(10_000)}\nend`;
    expect(rawBlocks(text, 4096).map(b => b.text)).toEqual([
      `${'😀'.repeat(10_000)}\n`,
      'end',
    ]);
    expect(rawBlocks('😀'.repeat(10_000), 4096)).toHaveLength(1);
  });

  it('estimates the lines a block shows, a long line as one per 100 code units', () => {
    expect(rawBlocks('a\n\n\nb')).toEqual([{ text: 'a\n\n\nb', lines: 4 }]);
    expect(rawBlocks(`${'x'.repeat(250)}\ny\n`)[0].lines).toBe(4);
  });
});

describe('RawText', () => {
  it('shows a long text in blocks whose text is the whole text', async () => {
    const text = lines(RAW_BLOCK_UNITS * 5, 7);
    await renderValues(<RawText text={text} label="Raw value of notes" />);
    const group = screen.getByRole('group', { name: 'Raw value of notes' });
    expect(group.textContent).toBe(text);
    expect(group.children.length).toBeGreaterThan(3);
    expect(group.tabIndex).toBe(0);
  });

  it('shows a short text as it is, and markup in it as text', async () => {
    const text = '<b>bold</b>\n  indented';
    await renderValues(<RawText text={text} label="Raw value of notes" />);
    const group = screen.getByRole('group', { name: 'Raw value of notes' });
    expect(group.textContent).toBe(text);
    expect(group.children).toHaveLength(0);
  });
});
