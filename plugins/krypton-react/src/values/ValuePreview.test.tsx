import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/core';
import { renderValues } from '../__testUtils__/renderValues';
import { fireEvent, screen } from '@testing-library/react';
import { ValuePreview } from './ValuePreview';

const HOSTILE_MARKDOWN = `# Title

Some **bold** text.

<script>alert(1)</script>

<img src=x onerror="alert(2)">

<iframe src="https://evil.example/frame"></iframe>

<style>body { display: none }</style>

Inline <span style="color:red" onclick="alert(4)">html</span> here.

[bad link](javascript:alert(3)) [data link](data:text/html;base64,PHNjcmlwdD4=)
[vb link](vbscript:msgbox) [file link](file:///etc/passwd) [relative link](/catalog)

[good link](https://example.com/docs) [mail link](mailto:ops@example.com) <https://auto.example/>

![secret](http://127.0.0.1/secret.png)

![pixel](javascript:alert(5))
`;

describe('ValuePreview: Markdown', () => {
  it('renders Markdown and keeps HTML, images and unsafe links inert', async () => {
    const { container } = await renderValues(
      <ValuePreview value={HOSTILE_MARKDOWN} />,
    );
    expect(screen.getByText('Detected: Markdown')).toBeInTheDocument();
    // Parsed in tasks after the render.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Title' }),
    ).toBeInTheDocument();
    expect(screen.getByText('bold').tagName).toBe('STRONG');

    for (const tag of ['script', 'img', 'iframe', 'style', 'object', 'embed']) {
      expect(container.querySelector(tag)).toBeNull();
    }
    expect(container.querySelector('[onerror], [onclick]')).toBeNull();
    expect(container.querySelector('.MuiPaper-root [style]')).toBeNull();
    // Raw HTML is visible as code text, never parsed.
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(
      screen.getByText('<img src=x onerror="alert(2)">'),
    ).toBeInTheDocument();

    expect(
      screen.getByText(
        'Image: secret (http://127.0.0.1/secret.png) — not loaded',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Image: pixel \(/)).toBeInTheDocument();
  });

  it('renders unsafe and relative links as plain text', async () => {
    const { container } = await renderValues(
      <ValuePreview value={HOSTILE_MARKDOWN} />,
    );
    await screen.findByRole('heading', { level: 1, name: 'Title' });
    for (const text of [
      'bad link',
      'data link',
      'vb link',
      'file link',
      'relative link',
    ]) {
      expect(screen.getByText(text).closest('a')).toBeNull();
    }
    // The test looks for the unsafe schemes on purpose.
    // eslint-disable-next-line no-script-url
    for (const prefix of ['javascript:', 'data:', 'vbscript:', 'file:', '/']) {
      expect(container.querySelector(`a[href^="${prefix}"]`)).toBeNull();
    }
  });

  it('opens safe links only in a new tab without opener or referrer', async () => {
    await renderValues(<ValuePreview value={HOSTILE_MARKDOWN} />);
    const links = await screen.findAllByRole('link');
    expect(links.map(link => link.getAttribute('href'))).toEqual([
      'https://example.com/docs',
      'mailto:ops@example.com',
      'https://auto.example/',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      const rel = (link.getAttribute('rel') ?? '').split(' ');
      expect(rel).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }
  });

  it('shows Markdown with too many elements as raw text', async () => {
    const value = `# Runbook\n\n${'- item\n'.repeat(16_384)}`;
    await renderValues(<ValuePreview value={value} />);
    expect(screen.getByText('Detected: Markdown')).toBeInTheDocument();
    expect(
      await screen.findByText(
        /too many Markdown elements to preview/,
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('listitem')).toBeNull();
    expect(
      screen.getByRole('group', { name: 'Raw Markdown text' }).textContent,
    ).toBe(value);
  });

  it('previews Markdown when chosen even without Markdown hints', async () => {
    await renderValues(
      <ValuePreview value="plain words *emphasis*" initialMode="markdown" />,
    );
    expect((await screen.findByText('emphasis')).tagName).toBe('EM');
  });
});

describe('ValuePreview: structured text', () => {
  it('pretty-prints JSON', async () => {
    const value = '{"b":1,"a":[1,{"c":null}]}';
    await renderValues(<ValuePreview value={value} />);
    expect(screen.getByText('Detected: JSON')).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'JSON preview' }).textContent,
    ).toBe(JSON.stringify(JSON.parse(value), null, 2));
  });

  it('shows invalid JSON raw with a note', async () => {
    const value = '{"a": 1,';
    await renderValues(<ValuePreview value={value} initialMode="json" />);
    expect(
      screen.getByText('Not valid JSON; showing the raw text.'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'Raw JSON text' }).textContent,
    ).toBe(value);
  });

  it('warns when JSON numbers cannot be shown exactly', async () => {
    await renderValues(
      <ValuePreview value='{"id": 12345678901234567891, "ok": 1.50}' />,
    );
    expect(
      screen.getByText(/Some numbers cannot be shown exactly/),
    ).toBeInTheDocument();
  });

  it('does not warn for ordinary JSON numbers', async () => {
    await renderValues(
      <ValuePreview value='{"a": 1.50, "b": -0.001, "c": 1e3, "d": "12345678901234567891"}' />,
    );
    expect(
      screen.queryByText(/Some numbers cannot be shown exactly/),
    ).toBeNull();
  });

  it('pretty-prints YAML and keeps scalars as written', async () => {
    const value =
      'name:   demo\nid: 12345678901234567891\nenabled: yes\nlist: [a,   b]\n';
    await renderValues(<ValuePreview value={value} />);
    expect(screen.getByText('Detected: YAML')).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'YAML preview' }).textContent,
    ).toBe(
      'name: demo\nid: 12345678901234567891\nenabled: yes\nlist: [ a, b ]\n',
    );
  });

  it('shows invalid YAML raw with a note', async () => {
    const value = 'a: [1, 2\nb: c: d';
    await renderValues(<ValuePreview value={value} initialMode="yaml" />);
    expect(
      screen.getByText('Not valid YAML; showing the raw text.'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'Raw YAML text' }).textContent,
    ).toBe(value);
  });

  it('pretty-prints XML', async () => {
    await renderValues(
      <ValuePreview value='<?xml version="1.0"?><a x="1"><b>text</b><c/></a>' />,
    );
    expect(screen.getByText('Detected: XML')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'XML preview' }).textContent).toBe(
      '<?xml version="1.0"?>\n<a x="1">\n  <b>text</b>\n  <c/>\n</a>',
    );
  });

  it('shows invalid XML raw with a note', async () => {
    const value = '<a><b>unclosed</a>';
    await renderValues(<ValuePreview value={value} initialMode="xml" />);
    expect(
      screen.getByText('Not valid XML; showing the raw text.'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'Raw XML text' }).textContent,
    ).toBe(value);
  });
});

describe('ValuePreview: mode and limit', () => {
  it('offers every mode and switches on demand', async () => {
    const value = '{"a":1}';
    await renderValues(<ValuePreview value={value} />);
    const group = screen.getByRole('group', { name: 'Preview as:' });
    expect(group).toBeInTheDocument();
    for (const name of [
      'Auto',
      'Markdown',
      'JSON',
      'YAML',
      'XML',
      'PEM',
      'Text',
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Auto' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Text' }));
    expect(screen.getByRole('button', { name: 'Text' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      screen.getByRole('group', { name: 'Text preview' }).textContent,
    ).toBe(value);
    expect(screen.queryByText(/^Detected:/)).toBeNull();
  });

  it('detects plain text', async () => {
    await renderValues(<ValuePreview value="s3cr3t-password" />);
    expect(screen.getByText('Detected: Text')).toBeInTheDocument();
  });

  it('previews a value of exactly the limit', async () => {
    const head = '# Limit heading\n\n';
    const value = head + 'a'.repeat(PREVIEW_LIMIT_CODE_UNITS - head.length);
    expect(value.length).toBe(PREVIEW_LIMIT_CODE_UNITS);
    await renderValues(<ValuePreview value={value} />);
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Limit heading' },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/is shown as raw text/)).toBeNull();
  });

  it('shows one code unit more as escaped raw text, before any parsing', async () => {
    const head = '# Limit heading\n\n<b>bold</b> [x](https://example.com)\n\n';
    // A surrogate pair counts as two code units, as String.length does.
    const value = `${head}😀${'a'.repeat(
      PREVIEW_LIMIT_CODE_UNITS - head.length - 1,
    )}`;
    expect(value.length).toBe(PREVIEW_LIMIT_CODE_UNITS + 1);
    const { container } = await renderValues(
      <ValuePreview value={value} initialMode="markdown" />,
    );
    expect(
      screen.getByText(
        'This value is larger than 131,072 characters, so it is shown as raw text.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(container.querySelector('b, h1, a, strong')).toBeNull();
    // No mode can be chosen above the limit: every mode would parse.
    expect(screen.queryByRole('button', { name: 'Markdown' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Raw text' }).textContent).toBe(
      value,
    );
  });

  it('says so for an empty value', async () => {
    await renderValues(<ValuePreview value="" />);
    expect(screen.getByText('This value is empty.')).toBeInTheDocument();
  });
});
