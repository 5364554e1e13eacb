import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import {
  MAX_SECRET_BYTES,
  RedactedSecret,
  SecretDto,
  SecretOwner,
  estimateSecretSize,
  messages,
} from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { kryptonApiRef } from '../../api/KryptonApi';
import { KryptonClient } from '../../api/KryptonClient';
import { SecretForm, SecretFormProps } from './SecretForm';
import { pageValues } from '../../__testUtils__/pageValues';

const server = setupServer();
const baseUrl = 'http://backstage.test/api/krypton';
const secretUrl = `${baseUrl}/namespaces/team-a/secrets/db`;

const client = new KryptonClient({
  discoveryApi: { getBaseUrl: async () => baseUrl },
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});

function secret(overrides: Partial<SecretDto> = {}): SecretDto {
  const data = overrides.data ?? { USER: 'app', PASS: 'pw' };
  const binaryData = overrides.binaryData ?? {};
  return {
    cluster: 'local',
    namespace: 'team-a',
    name: 'db',
    uid: 'uid-1',
    resourceVersion: '100',
    type: 'Opaque',
    immutable: false,
    managed: true,
    version: 3,
    description: 'Database credentials',
    access: {
      owners: ['user:default/alice'],
      editors: [],
      viewers: [],
    },
    ...overrides,
    data,
    binaryData,
    keys: [...Object.keys(data), ...Object.keys(binaryData)],
    binaryKeys: Object.keys(binaryData),
  };
}

/** Records the JSON bodies of PUTs and answers each with the next reply. */
function recordPuts(...replies: Array<() => Response>) {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.put(secretUrl, async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      const reply = replies[Math.min(bodies.length, replies.length) - 1];
      return reply();
    }),
  );
  return bodies;
}

function countGets(reply: () => Response) {
  const calls = { count: 0 };
  server.use(
    http.get(secretUrl, () => {
      calls.count += 1;
      return reply();
    }),
  );
  return calls;
}

const errorReply = (status: number, error: string) => () =>
  HttpResponse.json({ error }, { status });

/** What update, restore and create answer to a caller who may not reveal the values. */
function redacted(overrides: Partial<SecretDto> = {}): RedactedSecret {
  const { data: _data, binaryData: _binary, ...meta } = secret(overrides);
  return { ...meta, valuesOmitted: true };
}

type EditProps = Partial<Extract<SecretFormProps, { mode: 'edit' }>>;

function editForm(props: EditProps = {}) {
  return (
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <SecretForm
        mode="edit"
        location={{ namespace: 'team-a', name: 'db' }}
        initial={secret()}
        onSaved={() => {}}
        canEditAccess
        keepValues
        {...props}
      />
    </TestApiProvider>
  );
}

const renderEdit = (props: EditProps = {}) => renderInTestApp(editForm(props));

const description = () =>
  screen.getByLabelText('Description') as HTMLTextAreaElement;
const valueInput = (key: string) =>
  screen.getByLabelText(`Value of ${key}`) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save' });
const reloadButton = () =>
  screen.getByRole('button', { name: 'Reload latest' });
const bulkInput = () => screen.getByLabelText('Paste KEY=value lines');

/** Types by pasting: per-key typing through the whole form is slow in jsdom. */
async function fill(element: HTMLElement, text: string) {
  const user = userEvent.setup();
  await user.click(element);
  await user.paste(text);
}

async function replaceText(element: HTMLElement, text: string) {
  const user = userEvent.setup();
  await user.clear(element);
  if (text !== '') await fill(element, text);
}

// Each test boots a test app and drives a large MUI form; shared CI machines can be slow.
jest.setTimeout(20_000);

describe('SecretForm', () => {
  registerMswTestHooks(server);

  it('keeps the draft and its revision pinned when a newer Secret arrives', async () => {
    const user = userEvent.setup();
    const { rerender } = await renderEdit();
    await replaceText(description(), 'My change');
    await user.click(
      screen.getByRole('button', { name: 'Show value of PASS' }),
    );

    // A background refetch hands the form a newer revision with other values.
    rerender(
      editForm({
        initial: secret({
          resourceVersion: '200',
          description: 'Their change',
          data: { USER: 'other', PASS: 'rotated' },
        }),
      }),
    );

    expect(
      await screen.findByText(
        'Changed elsewhere. A newer version of this Secret exists. Reload latest to review it.',
      ),
    ).toBeInTheDocument();
    expect(description().value).toBe('My change');
    expect(valueInput('USER').value).toBe('app');
    expect(valueInput('PASS').value).toBe('pw');
    expect(screen.getByText(/loaded revision 100/)).toBeInTheDocument();

    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '101' })),
    );
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      description: 'My change',
    });
  });

  it('Reload latest resets fields, pasted text, visibility and revision together', async () => {
    const user = userEvent.setup();
    await renderEdit();
    await replaceText(description(), 'Draft text');
    await user.click(
      screen.getByRole('button', { name: 'Show value of PASS' }),
    );
    expect(valueInput('PASS').tagName).toBe('TEXTAREA');
    await user.click(bulkInput());
    await user.paste('EXTRA=1');

    const gets = countGets(() =>
      HttpResponse.json(
        secret({
          resourceVersion: '200',
          description: 'Fresh',
          data: { USER: 'app2', PASS: 'pw2' },
        }),
      ),
    );
    await user.click(reloadButton());

    expect(await screen.findByText(/loaded revision 200/)).toBeInTheDocument();
    expect(gets.count).toBe(1);
    expect(description().value).toBe('Fresh');
    expect((bulkInput() as HTMLTextAreaElement).value).toBe('');
    expect(valueInput('USER').value).toBe('app2');
    expect(valueInput('PASS')).toHaveAttribute('type', 'password');
    expect(
      screen.getByRole('button', { name: 'Show value of PASS' }),
    ).toHaveAttribute('aria-pressed', 'false');

    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '201' })),
    );
    await replaceText(description(), 'After reload');
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].resourceVersion).toBe('200');
  });

  it('keeps the draft and revision when Reload latest fails, and offers another try', async () => {
    const user = userEvent.setup();
    await renderEdit();
    await replaceText(description(), 'Still mine');
    const failing = countGets(errorReply(503, messages.unavailable));

    await user.click(reloadButton());

    const alert = await screen.findByText(/Could not reload the Secret/);
    expect(alert).toHaveTextContent(messages.unavailable);
    expect(failing.count).toBe(1);
    expect(description().value).toBe('Still mine');
    expect(screen.getByText(/loaded revision 100/)).toBeInTheDocument();

    const working = countGets(() =>
      HttpResponse.json(
        secret({ resourceVersion: '300', description: 'Live' }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/loaded revision 300/)).toBeInTheDocument();
    expect(working.count).toBe(1);
    expect(description().value).toBe('Live');
    expect(screen.queryByText(/Could not reload/)).not.toBeInTheDocument();
  });

  it('shows a conflict prompt on 409 and never retries the save', async () => {
    const user = userEvent.setup();
    await renderEdit();
    await replaceText(description(), 'Conflicting');
    const puts = recordPuts(errorReply(409, messages.staleRevision));

    await user.click(saveButton());

    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('This Secret changed since you loaded it.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(messages.staleRevision),
    ).toBeInTheDocument();
    // Give a blind retry every chance to happen.
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(puts).toHaveLength(1);
    expect(description().value).toBe('Conflicting');

    const gets = countGets(() =>
      HttpResponse.json(secret({ resourceVersion: '400' })),
    );
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );
    expect(await screen.findByText(/loaded revision 400/)).toBeInTheDocument();
    expect(gets.count).toBe(1);
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(puts).toHaveLength(1);
  });

  it("shows the server's message for other save failures, without the conflict prompt", async () => {
    const user = userEvent.setup();
    await renderEdit();
    await replaceText(description(), 'x');
    recordPuts(errorReply(422, messages.immutableData));
    await user.click(saveButton());
    expect(await screen.findByText(messages.immutableData)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('moves the baseline to the saved Secret', async () => {
    const user = userEvent.setup();
    const onSaved = jest.fn();
    await renderEdit({ onSaved });
    await replaceText(description(), 'Updated');
    const saved = secret({ resourceVersion: '101', description: 'Updated' });
    const puts = recordPuts(
      () => HttpResponse.json(saved),
      () => HttpResponse.json(secret({ resourceVersion: '102' })),
    );

    await user.click(saveButton());

    expect(await screen.findByText(/loaded revision 101/)).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(description().value).toBe('Updated');
    expect(saveButton()).toBeDisabled();
    expect(screen.getByText('No changes to save.')).toBeInTheDocument();
    // The page still passes the old Secret: that is not news.
    expect(
      screen.queryByText(/A newer version of this Secret exists/),
    ).not.toBeInTheDocument();

    await replaceText(description(), 'Again');
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ resourceVersion: '101', description: 'Again' });
  });

  it('blocks a save past 1 MiB at the boundary estimateSecretSize draws', async () => {
    const user = userEvent.setup();
    const fixed = 'big'.length + 'k'.length + 'a'.length + 'b.txt'.length + 4;
    // 748,982 bytes × 1.4 rounds up to 1,048,575, the last estimate that fits.
    const data = { big: 'x'.repeat(748_981 - fixed), k: 'a', 'b.txt': 'abcd' };
    expect(estimateSecretSize(data, {})).toBe(1_048_574);
    expect(estimateSecretSize({ ...data, k: 'ab' }, {})).toBe(
      MAX_SECRET_BYTES - 1,
    );
    expect(estimateSecretSize({ ...data, k: 'abc' }, {})).toBe(
      MAX_SECRET_BYTES + 1,
    );
    await renderEdit({ initial: secret({ data }) });
    expect(
      screen.getByText('1023 KiB of 1 MiB (estimated)'),
    ).toBeInTheDocument();

    await user.type(valueInput('k'), 'b');
    expect(screen.getByText(/1,048,575 of 1,048,576/)).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();

    await user.type(valueInput('k'), 'c');
    expect(
      screen.getByText('1.01 MiB of 1 MiB (estimated)'),
    ).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    expect(
      screen.getByText('The Secret is too large: the estimate is over 1 MiB.'),
    ).toBeInTheDocument();
    expect(saveButton()).toHaveAttribute('aria-describedby');
  });

  it('previews a paste by key only, then applies it to the draft', async () => {
    const user = userEvent.setup();
    await renderEdit({
      initial: secret({ data: { USER: 'app', PASS: 'pw', OLD: 'old-value' } }),
    });
    await user.click(bulkInput());
    await user.paste(
      '# pasted\nexport USER=app\nPASS="new-pass"\nNEW_KEY=brand-new\nbad key=oops',
    );

    const preview = screen.getByRole('region', {
      name: 'Preview of the pasted lines',
    });
    expect(within(preview).getByRole('alert')).toHaveTextContent(
      /Line 5: "bad key": Invalid key/,
    );
    const apply = within(preview).getByRole('button', {
      name: 'Apply pasted lines',
    });
    expect(apply).toBeDisabled();

    await replaceText(bulkInput(), '');
    await user.click(bulkInput());
    await user.paste('export USER=app\nPASS="new-pass"\nNEW_KEY=brand-new');
    await user.click(screen.getByLabelText(/Replace all/));

    const region = screen.getByRole('region', {
      name: 'Preview of the pasted lines',
    });
    const list = (name: RegExp) =>
      within(within(region).getByRole('list', { name }))
        .getAllByRole('listitem')
        .map(item => item.textContent);
    expect(list(/^Added/)).toEqual(['NEW_KEY']);
    expect(list(/^Changed/)).toEqual(['PASS']);
    expect(list(/^Removed/)).toEqual(['OLD']);
    expect(within(region).getByText('1 key unchanged.')).toBeInTheDocument();
    for (const value of ['new-pass', 'brand-new', 'old-value', 'pw']) {
      expect(region.textContent).not.toContain(value);
    }

    await user.click(
      within(region).getByRole('button', { name: 'Apply pasted lines' }),
    );
    expect((bulkInput() as HTMLTextAreaElement).value).toBe('');
    expect(screen.queryByLabelText('Value of OLD')).not.toBeInTheDocument();
    expect(valueInput('PASS').value).toBe('new-pass');
    expect(valueInput('NEW_KEY').value).toBe('brand-new');

    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '101' })),
    );
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].data).toEqual({
      USER: 'app',
      PASS: 'new-pass',
      NEW_KEY: 'brand-new',
    });
  });

  it('keeps the values of a binary-containing Secret read-only, says how to change bytes, and saves metadata only', async () => {
    const user = userEvent.setup();
    await renderEdit({
      initial: secret({ binaryData: { 'keystore.p12': 'AAECAwQ=' } }),
    });
    const binaryList = screen.getByRole('list', { name: 'Binary keys' });
    expect(binaryList).toHaveTextContent('keystore.p12 (binary, kept as is)');
    expect(
      screen.queryByLabelText('Value of keystore.p12'),
    ).not.toBeInTheDocument();
    expect(
      screen.getByText(
        /^To edit a binary-containing Secret, update metadata in Krypton or use Kubernetes tooling to change bytes\./,
      ),
    ).toBeInTheDocument();
    // A command that runs as shown: the JSON's quotes escaped inside the shell's double quotes.
    expect(
      screen.getByText(/^kubectl -n team-a patch secret db --type merge/),
    ).toHaveTextContent(
      'kubectl -n team-a patch secret db --type merge -p "{\\"data\\":{\\"keystore.p12\\":\\"$(base64 -w0 < keystore.p12)\\"}}"',
    );
    expect(valueInput('PASS')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Key 1')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Add key' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove PASS' })).toBeDisabled();

    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '101' })),
    );
    await replaceText(description(), 'Keystore of the payments API');
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      description: 'Keystore of the payments API',
    });
  });

  it('never puts a multi-line value into a password input, and keeps CR values read-only', async () => {
    const user = userEvent.setup();
    await renderEdit({
      initial: secret({ data: { PEM: 'line1\nline2', CRLF: 'a\r\nb' } }),
    });
    expect(valueInput('PEM')).toHaveAttribute('type', 'password');
    expect(valueInput('PEM')).toHaveAttribute('readonly');
    expect(valueInput('PEM').value).not.toContain('line1');

    await user.click(screen.getByRole('button', { name: 'Show value of PEM' }));
    expect(valueInput('PEM').tagName).toBe('TEXTAREA');
    expect(valueInput('PEM').value).toBe('line1\nline2');
    expect(valueInput('PEM')).not.toHaveAttribute('readonly');

    await user.click(
      screen.getByRole('button', { name: 'Show value of CRLF' }),
    );
    expect(valueInput('CRLF')).toHaveAttribute('readonly');

    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '101' })),
    );
    await replaceText(description(), 'Only metadata');
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    // Unchanged values are not sent, so the edit is metadata-only and keeps every byte.
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      description: 'Only metadata',
    });
  });

  it('creates a Secret in the namespace with the same form, then edits it', async () => {
    const user = userEvent.setup();
    const onSaved = jest.fn();
    const posts: unknown[] = [];
    const created = secret({
      name: 'api-token',
      resourceVersion: '1',
      data: { TOKEN: 't0k3n' },
      description: 'CI token',
    });
    server.use(
      http.post(
        `${baseUrl}/clusters/prod/namespaces/team-a/secrets`,
        async ({ request }) => {
          posts.push(await request.json());
          return HttpResponse.json(created, { status: 201 });
        },
      ),
    );
    await renderInTestApp(
      <TestApiProvider apis={[[kryptonApiRef, client]]}>
        <SecretForm
          mode="create"
          location={{ cluster: 'prod', namespace: 'team-a' }}
          onSaved={onSaved}
          canEditAccess
          keepValues
        />
      </TestApiProvider>,
    );
    const create = () => screen.getByRole('button', { name: 'Create' });
    const name = screen.getByRole('textbox', { name: /Name/ });

    await fill(name, 'krypton-h-abc');
    expect(
      screen.getByText(/reserved for Krypton's history snapshots/),
    ).toBeInTheDocument();
    expect(create()).toBeDisabled();
    await replaceText(name, 'krypton-p-abc');
    expect(
      screen.getByText(/reserved for Krypton's change requests/),
    ).toBeInTheDocument();
    expect(create()).toBeDisabled();

    await replaceText(name, 'api-token');
    expect(screen.getByRole('textbox', { name: /Type/ })).toHaveValue('Opaque');
    await fill(screen.getByLabelText('Key 1'), 'TOKEN');
    await fill(valueInput('TOKEN'), 't0k3n');
    await fill(description(), 'CI token');
    await fill(screen.getByLabelText('Owners'), 'group:team-a');
    await user.click(create());

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(created));
    expect(posts).toEqual([
      {
        name: 'api-token',
        type: 'Opaque',
        data: { TOKEN: 't0k3n' },
        description: 'CI token',
        access: { owners: ['group:default/team-a'] },
      },
    ]);
    expect(await screen.findByText(/loaded revision 1$/)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('does not render the access fields without the right to edit them', async () => {
    const user = userEvent.setup();
    await renderEdit({ canEditAccess: false });
    expect(screen.queryByLabelText('Owners')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Editors')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Viewers')).not.toBeInTheDocument();

    // The description is an owner's too: the backend refuses it to editors.
    expect(description()).toBeDisabled();
    expect(
      screen.getByText('Only owners change the description.'),
    ).toBeInTheDocument();

    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '101' })),
    );
    await replaceText(valueInput('USER'), 'app2');
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).not.toHaveProperty('access');
    expect(puts[0]).not.toHaveProperty('description');
  });

  it('renders the access fields for someone who may edit them', async () => {
    await renderEdit({ canEditAccess: true });
    expect(screen.getByLabelText('Owners')).toHaveValue('user:default/alice');
    expect(screen.getByLabelText('Editors')).toHaveValue('');
  });

  it('loads the Secret itself when mounted without one, never using browser storage', async () => {
    const setItem = jest.spyOn(Storage.prototype, 'setItem');
    const gets = countGets(() => HttpResponse.json(secret()));
    await renderEdit({ initial: undefined });
    expect(await screen.findByText(/loaded revision 100/)).toBeInTheDocument();
    expect(gets.count).toBe(1);
    await replaceText(description(), 'draft only in memory');
    await replaceText(valueInput('PASS'), 'secret-value');
    expect(setItem).not.toHaveBeenCalled();
    setItem.mockRestore();
  });

  it('allows an edit only to turn immutability on, and locks an immutable Secret’s values', async () => {
    const { unmount } = await renderEdit();
    expect(
      screen.getByRole('checkbox', { name: /Make immutable/ }),
    ).not.toBeChecked();
    unmount();

    await renderEdit({ initial: secret({ immutable: true }) });
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(
      screen.getByText(/cannot make this Secret mutable again/),
    ).toBeInTheDocument();
    expect(valueInput('PASS')).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Add key' })).toBeDisabled();
  });

  describe('write answers without values', () => {
    const OLD_USER = 'old-user-7f3a';
    const OLD_PASS = 'old-pass-9c1e';
    const TYPED = 'typed-new-pass-42b8';
    const withValues = (overrides: Partial<SecretDto> = {}) =>
      secret({ data: { USER: OLD_USER, PASS: OLD_PASS }, ...overrides });

    it('keeps no values after a save answered redacted, and sends none with the next save', async () => {
      const user = userEvent.setup();
      const onSaved = jest.fn();
      await renderEdit({ initial: withValues(), onSaved });
      await replaceText(valueInput('PASS'), TYPED);
      const puts = recordPuts(
        () =>
          HttpResponse.json(redacted({ resourceVersion: '101', version: 4 })),
        () =>
          HttpResponse.json(redacted({ resourceVersion: '102', version: 4 })),
      );

      await user.click(saveButton());

      expect(
        await screen.findByText(/version 4, loaded revision 101/),
      ).toBeInTheDocument();
      expect(puts[0]).toEqual({
        resourceVersion: '100',
        data: { USER: OLD_USER, PASS: TYPED },
      });
      expect(onSaved).toHaveBeenCalledTimes(1);
      expect(onSaved.mock.calls[0][0]).toEqual(
        redacted({ resourceVersion: '101', version: 4 }),
      );
      // Neither the loaded values nor the typed one outlive the save.
      for (const value of [OLD_USER, OLD_PASS, TYPED]) {
        expect(pageValues()).not.toContain(value);
      }
      expect(screen.queryByLabelText(/^Value of/)).not.toBeInTheDocument();
      expect(screen.queryByLabelText('Paste KEY=value lines')).toBeNull();
      expect(
        screen.getByText(/This Secret's values are not shown or kept here/),
      ).toBeInTheDocument();
      expect(screen.getByRole('table', { name: 'Keys' })).toHaveTextContent(
        'PASS',
      );
      expect(saveButton()).toBeDisabled();
      expect(screen.getByText('No changes to save.')).toBeInTheDocument();

      // A metadata edit from there sends no data: no values were invented for the baseline.
      await replaceText(description(), 'Second change');
      await user.click(saveButton());
      await waitFor(() => expect(puts).toHaveLength(2));
      expect(puts[1]).toEqual({
        resourceVersion: '101',
        description: 'Second change',
      });
    });

    it('drops the values of an answer that carries them when the user may not keep them', async () => {
      const user = userEvent.setup();
      const onSaved = jest.fn();
      const created = secret({
        name: 'api-token',
        resourceVersion: '1',
        version: 1,
        data: { TOKEN: TYPED },
      });
      const posts: unknown[] = [];
      server.use(
        http.post(
          `${baseUrl}/namespaces/team-a/secrets`,
          async ({ request }) => {
            posts.push(await request.json());
            return HttpResponse.json(created, { status: 201 });
          },
        ),
      );
      await renderInTestApp(
        <TestApiProvider apis={[[kryptonApiRef, client]]}>
          <SecretForm
            mode="create"
            location={{ namespace: 'team-a' }}
            onSaved={onSaved}
            canEditAccess
            keepValues={false}
          />
        </TestApiProvider>,
      );
      await fill(screen.getByRole('textbox', { name: /Name/ }), 'api-token');
      await fill(screen.getByLabelText('Key 1'), 'TOKEN');
      await fill(valueInput('TOKEN'), TYPED);
      await user.click(screen.getByRole('button', { name: 'Create' }));

      expect(
        await screen.findByText(/version 1, loaded revision 1$/),
      ).toBeInTheDocument();
      expect(posts).toHaveLength(1);
      const saved = onSaved.mock.calls[0][0];
      expect(saved).not.toHaveProperty('data');
      expect(saved).not.toHaveProperty('binaryData');
      expect(saved).toMatchObject({ name: 'api-token', valuesOmitted: true });
      expect(pageValues()).not.toContain(TYPED);
      expect(screen.queryByLabelText('Value of TOKEN')).toBeNull();
    });

    it('edits the metadata of a Secret whose values the user may not reveal, without reading them', async () => {
      const user = userEvent.setup();
      const valueReads = countGets(errorReply(403, 'not expected'));
      let summaryReads = 0;
      server.use(
        http.get(`${secretUrl}/summary`, () => {
          summaryReads += 1;
          return HttpResponse.json(redacted());
        }),
      );
      await renderEdit({ initial: undefined, keepValues: false });
      expect(
        await screen.findByText(/loaded revision 100/),
      ).toBeInTheDocument();
      expect(summaryReads).toBe(1);
      expect(valueReads.count).toBe(0);
      expect(screen.queryByLabelText(/^Value of/)).toBeNull();

      const puts = recordPuts(() =>
        HttpResponse.json(redacted({ resourceVersion: '101' })),
      );
      await replaceText(description(), 'Owner note');
      await user.click(saveButton());
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]).toEqual({
        resourceVersion: '100',
        description: 'Owner note',
      });
    });
  });

  describe('immutability', () => {
    const immutable = () =>
      screen.getByRole('checkbox', { name: /Make immutable/ });

    it('is an owner’s decision: disabled with the reason for an editor, whose data edit never carries it', async () => {
      const user = userEvent.setup();
      await renderEdit({ canEditAccess: false });
      expect(immutable()).toBeDisabled();
      expect(immutable()).toHaveAccessibleDescription(
        'Only owners make a Secret immutable, because it can never be changed or restored afterwards.',
      );

      const puts = recordPuts(() =>
        HttpResponse.json(secret({ resourceVersion: '101' })),
      );
      await replaceText(valueInput('PASS'), 'rotated');
      await user.click(saveButton());
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]).toEqual({
        resourceVersion: '100',
        data: { USER: 'app', PASS: 'rotated' },
      });
      expect(puts[0]).not.toHaveProperty('immutable');
    });

    it('is enabled for an owner, and sent only when switched on', async () => {
      const user = userEvent.setup();
      await renderEdit({ canEditAccess: true });
      expect(immutable()).toBeEnabled();
      expect(immutable()).not.toHaveAccessibleDescription(
        /Only owners make a Secret immutable/,
      );

      const puts = recordPuts(
        () => HttpResponse.json(secret({ resourceVersion: '101' })),
        () =>
          HttpResponse.json(
            secret({ resourceVersion: '102', immutable: true }),
          ),
      );
      await replaceText(description(), 'Only the description');
      await user.click(saveButton());
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]).not.toHaveProperty('immutable');

      await user.click(immutable());
      await user.click(saveButton());
      await waitFor(() => expect(puts).toHaveLength(2));
      expect(puts[1]).toEqual({ resourceVersion: '101', immutable: true });
    });
  });
});

describe('SecretForm of an owned Secret', () => {
  registerMswTestHooks(server);

  const helm = (edits: SecretOwner['edits']): SecretOwner => ({
    tool: 'helm',
    kind: 'Release',
    name: 'web',
    outcome: 'reverted-at-upgrade',
    evidence: ['app.kubernetes.io/managed-by', 'meta.helm.sh/release-name'],
    edits,
  });

  it("moves to the owner's rule that Reload latest finds: a refusal blocks the save with its reason", async () => {
    countGets(() => HttpResponse.json(secret({ owner: helm('refused') })));
    const puts = recordPuts(() => HttpResponse.json(secret()));
    const user = userEvent.setup();
    await renderEdit({ initial: secret({ owner: helm('reason-required') }) });
    expect(
      screen.getByRole('textbox', { name: 'Your reason for this change' }),
    ).toBeRequired();

    await user.click(reloadButton());
    await waitFor(() =>
      expect(
        screen.queryByRole('textbox', { name: 'Your reason for this change' }),
      ).toBeNull(),
    );
    expect(
      screen.getByRole('region', { name: 'Owned by Helm' }),
    ).toHaveTextContent(
      'Krypton does not change it: it does not update, restore, adopt or delete a Secret that another tool owns.',
    );
    await replaceText(valueInput('USER'), 'changed');
    expect(saveButton()).toBeDisabled();
    expect(saveButton()).toHaveAccessibleDescription(
      'Helm owns this Secret, and Krypton does not change a Secret that another tool owns.',
    );
    expect(puts).toHaveLength(0);
  });

  it('asks for the reason of a change of the description alone too, since every update is one', async () => {
    const puts = recordPuts(() =>
      HttpResponse.json(secret({ resourceVersion: '101' })),
    );
    const user = userEvent.setup();
    await renderEdit({
      initial: secret({ owner: helm('reason-required') }),
      scope: 'metadata',
    });
    await replaceText(description(), 'Owned by the web release');
    expect(saveButton()).toBeDisabled();
    await fill(
      screen.getByRole('textbox', { name: 'Your reason for this change' }),
      'Documenting who owns it',
    );
    await user.click(saveButton());
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      description: 'Owned by the web release',
      ownedEditReason: 'Documenting who owns it',
    });
  });
});
