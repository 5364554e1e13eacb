import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/core';
import { renderInTestApp } from '@backstage/test-utils';
import { fireEvent, screen, within } from '@testing-library/react';
import { SecretValues } from './SecretValues';

const writeText = jest.fn<Promise<void>, [string]>();

beforeEach(() => {
  writeText.mockReset();
  writeText.mockResolvedValue(undefined);
  // jsdom has no clipboard; the component must use exactly this API.
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText },
    configurable: true,
  });
});

/** The table row of one key. */
function row(key: string): HTMLElement {
  const header = screen.getByRole('rowheader', { name: key });
  const tr = header.closest('tr');
  if (!tr) throw new Error(`no row for ${key}`);
  return tr;
}

function button(key: string, name: string): HTMLElement {
  return within(row(key)).getByRole('button', { name });
}

describe('SecretValues', () => {
  it('masks every value until Reveal, and Hide masks it again', async () => {
    const secret = 'hunter2-very-secret';
    await renderInTestApp(
      <SecretValues
        data={{ password: secret }}
        binaryData={{ blob: 'AAEC/w==' }}
      />,
    );
    expect(document.body.textContent).not.toContain(secret);
    expect(document.body.textContent).not.toContain('AAEC/w==');
    expect(within(row('password')).getByText('Hidden')).toBeInTheDocument();

    fireEvent.click(button('password', 'Reveal'));
    expect(screen.getByText(secret)).toBeInTheDocument();
    // Revealing one key reveals nothing else.
    expect(document.body.textContent).not.toContain('AAEC/w==');

    fireEvent.click(button('password', 'Hide'));
    expect(document.body.textContent).not.toContain(secret);
    expect(button('password', 'Reveal')).toBeInTheDocument();
  });

  it('masks again when a key shows another value, but not on an identical refresh', async () => {
    const { rerender } = await renderInTestApp(
      <SecretValues data={{ password: 'version-3' }} binaryData={{}} />,
    );
    fireEvent.click(button('password', 'Expand value'));
    expect(document.body.textContent).toContain('version-3');

    rerender(<SecretValues data={{ password: 'version-3' }} binaryData={{}} />);
    expect(document.body.textContent).toContain('version-3');
    expect(button('password', 'Expand value')).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    rerender(<SecretValues data={{ password: 'version-2' }} binaryData={{}} />);
    expect(document.body.textContent).not.toContain('version-');
    expect(button('password', 'Reveal')).toBeInTheDocument();
    expect(button('password', 'Expand value')).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('lists keys sorted with their kind and size in bytes', async () => {
    await renderInTestApp(
      <SecretValues
        data={{ zeta: 'abc', emoji: 'é😀', empty: '' }}
        binaryData={{ blob: 'AAEC/w==', one: 'AA==' }}
        keys={['zeta', 'emoji', 'empty', 'blob', 'one']}
      />,
    );
    const keys = screen.getAllByRole('rowheader').map(cell => cell.textContent);
    expect(keys).toEqual(['blob', 'emoji', 'empty', 'one', 'zeta']);

    // é is 2 UTF-8 bytes and 😀 is 4, though the string has 3 UTF-16 code units.
    expect(within(row('emoji')).getByText('6 bytes')).toBeInTheDocument();
    expect(within(row('emoji')).getByText('text')).toBeInTheDocument();
    expect(within(row('zeta')).getByText('3 bytes')).toBeInTheDocument();
    expect(within(row('empty')).getByText('0 bytes')).toBeInTheDocument();
    // Binary sizes are decoded bytes, not base64 characters.
    expect(within(row('blob')).getByText('4 bytes')).toBeInTheDocument();
    expect(within(row('blob')).getByText('binary')).toBeInTheDocument();
    expect(within(row('one')).getByText('1 byte')).toBeInTheDocument();
  });

  it('treats prototype-like keys as ordinary keys', async () => {
    const data = JSON.parse('{"__proto__":"proto-value"}') as Record<
      string,
      string
    >;
    await renderInTestApp(
      <SecretValues
        data={data}
        binaryData={{}}
        keys={['__proto__', 'constructor']}
      />,
    );
    expect(within(row('__proto__')).getByText('11 bytes')).toBeInTheDocument();
    fireEvent.click(button('__proto__', 'Reveal'));
    expect(screen.getByText('proto-value')).toBeInTheDocument();
    // Listed by keys but absent from both maps: never Object.prototype.constructor.
    expect(
      within(row('constructor')).getByText('not loaded'),
    ).toBeInTheDocument();
    expect(within(row('constructor')).queryByRole('button')).toBeNull();
  });

  it('gives the original full text through Raw and Copy', async () => {
    const value = '  line one\n<b>two</b>\t\n\nthree  ';
    await renderInTestApp(
      <SecretValues data={{ config: value }} binaryData={{}} />,
    );

    fireEvent.click(button('config', 'Copy'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(value);
    // Copying is not revealing.
    expect(
      screen.queryByRole('group', { name: 'Raw value of config' }),
    ).toBeNull();

    fireEvent.click(button('config', 'Raw'));
    expect(button('config', 'Raw')).toHaveAttribute('aria-pressed', 'true');
    const raw = screen.getByRole('group', { name: 'Raw value of config' });
    expect(raw.textContent).toBe(value);
    expect(raw.querySelector('b')).toBeNull();

    // Hide closes everything Raw or Expand showed.
    fireEvent.click(button('config', 'Hide'));
    expect(
      screen.queryByRole('group', { name: 'Raw value of config' }),
    ).toBeNull();
  });

  it('reports a clipboard failure instead of pretending', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    await renderInTestApp(<SecretValues data={{ k: 'v' }} binaryData={{}} />);
    fireEvent.click(button('k', 'Copy'));
    expect(await screen.findByText('Could not copy')).toBeInTheDocument();
  });

  it('opens the preview with Expand value', async () => {
    await renderInTestApp(
      <SecretValues data={{ readme: '# Hello\n\nworld' }} binaryData={{}} />,
    );
    const expand = button('readme', 'Expand value');
    expect(expand).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(expand);
    expect(expand).toHaveAttribute('aria-expanded', 'true');
    expect(
      await screen.findByRole('heading', { name: 'Hello' }),
    ).toBeInTheDocument();
    fireEvent.click(expand);
    expect(screen.queryByRole('heading', { name: 'Hello' })).toBeNull();
  });

  it("draws the shared preview with Backstage's controls and words", async () => {
    await renderInTestApp(
      <SecretValues
        data={{
          config: '{"retries": 3}',
          tls: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n',
        }}
        binaryData={{}}
      />,
    );
    fireEvent.click(button('config', 'Expand value'));
    expect(screen.getByText('Detected: JSON')).toBeInTheDocument();
    const auto = screen.getByRole('button', { name: 'Auto' });
    expect(auto).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Text' }));
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      screen.getByRole('group', { name: 'Text preview' }),
    ).toHaveTextContent('{"retries": 3}');
    // Clicking the chosen format again keeps it (Material UI would deselect it).
    fireEvent.click(screen.getByRole('button', { name: 'Text' }));
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    fireEvent.click(button('tls', 'Expand value'));
    expect(screen.getByText('Block 1: CERTIFICATE')).toBeInTheDocument();
    expect(
      screen.getByText('This block could not be parsed.'),
    ).toBeInTheDocument();
  });

  it('labels every action and ties it to its key', async () => {
    await renderInTestApp(
      <SecretValues data={{ token: 't' }} binaryData={{ cert: 'AA==' }} />,
    );
    for (const name of ['Reveal', 'Expand value', 'Raw', 'Copy']) {
      expect(button('token', name)).toHaveAccessibleDescription('token');
    }
    expect(button('cert', 'Reveal')).toHaveAccessibleDescription('cert');
  });

  it('masks binary values and shows and copies them only as base64', async () => {
    const base64 = '/9j/4AAQSkZJRgABAQ==';
    await renderInTestApp(
      <SecretValues data={{}} binaryData={{ 'logo.jpg': base64 }} />,
    );
    const binaryRow = row('logo.jpg');
    expect(document.body.textContent).not.toContain(base64);
    // No text preview and no raw text view: only Reveal (base64) and Copy (base64).
    expect(
      within(binaryRow)
        .getAllByRole('button')
        .map(b => b.getAttribute('aria-label')),
    ).toEqual(['Reveal', 'Copy']);

    fireEvent.click(button('logo.jpg', 'Copy'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(base64);

    fireEvent.click(button('logo.jpg', 'Reveal'));
    expect(screen.getByText(base64)).toBeInTheDocument();
    expect(within(binaryRow).getByText('shown as base64')).toBeInTheDocument();
    expect(within(binaryRow).queryByRole('textbox')).toBeNull();
  });

  it('falls back to raw text above the preview limit, while Raw and Copy keep the whole value', async () => {
    const value = `# Heading\n\n[link](https://example.com)\n${'a'.repeat(
      PREVIEW_LIMIT_CODE_UNITS,
    )}`;
    expect(value.length).toBeGreaterThan(PREVIEW_LIMIT_CODE_UNITS);
    await renderInTestApp(
      <SecretValues data={{ big: value }} binaryData={{}} />,
    );

    fireEvent.click(button('big', 'Expand value'));
    expect(
      screen.getByText(
        'This value is larger than 131,072 characters, so it is shown as raw text.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Heading' })).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('group', { name: 'Raw text' }).textContent).toBe(
      value,
    );

    fireEvent.click(button('big', 'Copy'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(value);

    fireEvent.click(button('big', 'Raw'));
    expect(
      screen.getByRole('group', { name: 'Raw value of big' }).textContent,
    ).toBe(value);
  });

  it('puts only the start of a long value in the revealed cell, which shows one line of it', async () => {
    // The cell shows 360 px of the value on one line, but the browser lays out all of it.
    const start = 'x'.repeat(1023);
    const value = `${start}😀${'y'.repeat(20_000)}`;
    await renderInTestApp(
      <SecretValues
        data={{ big: value, small: `${'z'.repeat(16_382)}😀` }}
        binaryData={{}}
      />,
    );
    fireEvent.click(button('big', 'Reveal'));
    fireEvent.click(button('small', 'Reveal'));
    const cell = (key: string) => row(key).querySelector('code')!.textContent;
    // 1,024 code units, less the first half of the pair that would be cut.
    expect(cell('big')).toBe(start);
    // Up to 16,384 code units, all of it.
    expect(cell('small')).toHaveLength(16_384);

    fireEvent.click(button('big', 'Raw'));
    expect(
      screen.getByRole('group', { name: 'Raw value of big' }).textContent,
    ).toBe(value);
    fireEvent.click(button('big', 'Copy'));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(value);
  });

  it('keeps key names and buttons whole in a narrow table', async () => {
    await renderInTestApp(
      <SecretValues data={{ password: 'x' }} binaryData={{}} />,
    );
    // A short key gets room of its own, so a squeezed column never cuts it mid-word; a long
    // one still wraps rather than widen the table past its card.
    expect(screen.getByText('password')).toHaveStyle({
      display: 'inline-block',
      minWidth: '10ch',
    });
    // Buttons wrap to a second line whole, never their labels inside them.
    const buttons = within(row('password')).getAllByRole('button');
    expect(buttons.map(b => b.textContent)).toEqual([
      'Reveal',
      'Expand value',
      'Raw',
      'Copy',
    ]);
    for (const b of buttons) expect(b).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('says so when there are no values', async () => {
    await renderInTestApp(
      <SecretValues data={{}} binaryData={{}} title="Version 3" />,
    );
    expect(screen.getByText('Version 3')).toBeInTheDocument();
    expect(screen.getByText('There are no values.')).toBeInTheDocument();
  });
});
