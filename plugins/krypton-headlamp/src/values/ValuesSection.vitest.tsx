import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInHeadlamp } from '../__testUtils__/renderInHeadlamp';
import { ShownSecret } from '../shownSecret';
import { ValuesSection } from './ValuesSection';

afterEach(() => {
  vi.unstubAllGlobals();
});

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function secretWith(data: Record<string, string>): ShownSecret {
  return {
    cluster: 'test',
    namespace: 'team-a',
    name: 'db',
    native: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'team-a' },
      data,
    },
  } as ShownSecret;
}

const rowOf = (key: string) =>
  screen.getByRole('rowheader', { name: key }).closest('tr')!;
const click = (row: HTMLElement, name: string) =>
  fireEvent.click(within(row).getByRole('button', { name }));

describe('ValuesSection', () => {
  it('keeps every value out of the page until it is revealed', () => {
    renderInHeadlamp(
      <ValuesSection secret={secretWith({ password: b64('s3cr3t-value') })} />,
    );
    expect(screen.getByText('Values')).toBeTruthy();
    expect(document.body.textContent).not.toContain('s3cr3t-value');
    const row = rowOf('password');
    expect(within(row).getByText('Hidden')).toBeTruthy();
    expect(within(row).getByText('12 bytes')).toBeTruthy();

    click(row, 'Reveal');
    expect(within(row).getByText('s3cr3t-value')).toBeTruthy();
    click(row, 'Hide');
    expect(document.body.textContent).not.toContain('s3cr3t-value');
  });

  it('shows a binary value as its base64 only, never previewed as text', () => {
    const binary = Buffer.from([0xff, 0x00, 0xfe]).toString('base64');
    renderInHeadlamp(<ValuesSection secret={secretWith({ blob: binary })} />);
    const row = rowOf('blob');
    expect(within(row).getByText('binary')).toBeTruthy();
    expect(
      within(row).queryByRole('button', { name: 'Expand value' }),
    ).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Raw' })).toBeNull();
    click(row, 'Reveal');
    expect(within(row).getByText(binary)).toBeTruthy();
    expect(within(row).getByText('shown as base64')).toBeTruthy();
  });

  it('previews a value with the shared previews: detected format, inert Markdown', async () => {
    renderInHeadlamp(
      <ValuesSection
        secret={secretWith({
          config: b64('{"id": 12345678901234567890}'),
          notes: b64(
            '# Runbook\n\n[run me](javascript:alert(1)) and [docs](https://example.com/d)\n',
          ),
        })}
      />,
    );
    click(rowOf('config'), 'Expand value');
    expect(screen.getByText('Detected: JSON')).toBeTruthy();
    expect(screen.getByText(/appear rounded/)).toBeTruthy();

    click(rowOf('notes'), 'Expand value');
    expect(
      await screen.findByRole('heading', { name: 'Runbook' }),
    ).toBeTruthy();
    expect(screen.getByText('run me').closest('a')).toBeNull();
    expect(
      screen.getByRole('link', { name: 'docs' }).getAttribute('href'),
    ).toBe('https://example.com/d');
  });

  it('shows a value above the preview limit as raw text, whole, with the limit named', () => {
    const big = 'x'.repeat(PREVIEW_LIMIT_CODE_UNITS + 1);
    renderInHeadlamp(<ValuesSection secret={secretWith({ big: b64(big) })} />);
    click(rowOf('big'), 'Expand value');
    expect(
      screen.getByText(
        'This value is larger than 131,072 characters, so it is shown as raw text.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Raw text' }).textContent).toBe(
      big,
    );
  });

  it('shows Raw as the exact text and copies the whole value', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    renderInHeadlamp(
      <ValuesSection
        secret={secretWith({ token: b64('<b>not markup</b>') })}
      />,
    );
    const row = rowOf('token');
    click(row, 'Raw');
    expect(
      screen.getByRole('group', { name: 'Raw value of token' }).textContent,
    ).toBe('<b>not markup</b>');
    click(row, 'Copy');
    expect(await within(row).findByText('Copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('<b>not markup</b>');
  });

  it('says so when the Secret has no values', () => {
    renderInHeadlamp(<ValuesSection secret={secretWith({})} />);
    expect(screen.getByText('There are no values.')).toBeTruthy();
  });
});
