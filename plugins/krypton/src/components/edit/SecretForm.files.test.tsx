import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import {
  MAX_SECRET_BYTES,
  SecretDto,
  bytesToBase64,
  estimateSecretSize,
} from '@krypton/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { kryptonApiRef } from '../../api/KryptonApi';
import { KryptonClient } from '../../api/KryptonClient';
import { pageValues } from '../../__testUtils__/pageValues';
import { SecretForm } from './SecretForm';

const server = setupServer();
const baseUrl = 'http://backstage.test/api/krypton';
const secretUrl = `${baseUrl}/namespaces/team-a/secrets/db`;

const client = new KryptonClient({
  discoveryApi: { getBaseUrl: async () => baseUrl },
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});

function secret(data: Record<string, string>): SecretDto {
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
    access: { owners: ['user:default/alice'], editors: [], viewers: [] },
    data,
    binaryData: {},
    keys: Object.keys(data),
    binaryKeys: [],
  };
}

function renderEdit(data: Record<string, string> = { PASS: 'old-pass' }) {
  return renderInTestApp(
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <SecretForm
        mode="edit"
        location={{ namespace: 'team-a', name: 'db' }}
        initial={secret(data)}
        onSaved={() => {}}
        canEditAccess
        keepValues
      />
    </TestApiProvider>,
  );
}

function renderCreate() {
  return renderInTestApp(
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <SecretForm
        mode="create"
        location={{ namespace: 'team-a' }}
        onSaved={() => {}}
        canEditAccess
        keepValues={false}
      />
    </TestApiProvider>,
  );
}

function recordPuts() {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.put(secretUrl, async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json(secret({ PASS: 'x' }));
    }),
  );
  return bodies;
}

const fileInput = (name: string) =>
  screen.getByLabelText(`Load value of ${name} from a file`, {
    selector: 'input',
  });
const sizeText = (bytes: number) =>
  new RegExp(`^${bytes.toLocaleString('en-US')} of `);

// Not valid UTF-8: a lone continuation byte and a truncated sequence.
const NOT_UTF8 = new Uint8Array([0x66, 0x80, 0xff, 0xc3]);

jest.setTimeout(20_000);

describe('SecretForm values from files', () => {
  registerMswTestHooks(server);

  it('fills a text value from a UTF-8 file byte for byte, line endings and BOM included', async () => {
    const user = userEvent.setup();
    await renderEdit();
    const text = '\uFEFF-----BEGIN CERT-----\r\nMIIB\r\n-----END CERT-----\r\n';
    await user.upload(
      fileInput('PASS'),
      new File([text], 'cert.pem', { type: 'text/plain' }),
    );
    // The meter counts the loaded value as it will be sent.
    expect(
      await screen.findByText(sizeText(estimateSecretSize({ PASS: text }, {}))),
    ).toBeInTheDocument();

    const puts = recordPuts();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ resourceVersion: '100', data: { PASS: text } });
  });

  it("takes the file's name as the key of a row without one, when it is a valid key", async () => {
    const user = userEvent.setup();
    await renderEdit();
    await user.click(screen.getByRole('button', { name: 'Add key' }));
    await user.upload(fileInput('row 2'), new File(['a'], 'tls.crt'));
    expect(await screen.findByLabelText('Key 2')).toHaveValue('tls.crt');

    await user.click(screen.getByRole('button', { name: 'Add key' }));
    await user.upload(fileInput('row 3'), new File(['b'], 'my cert!.pem'));
    expect(await screen.findByLabelText('Value of row 3')).toHaveValue('b');
    expect(screen.getByLabelText('Key 3')).toHaveValue('');

    // A row with a key keeps it.
    await user.upload(fileInput('PASS'), new File(['c'], 'other.txt'));
    await waitFor(() =>
      expect(screen.getByLabelText('Value of PASS')).toHaveValue('c'),
    );
    expect(screen.getByLabelText('Key 1')).toHaveValue('PASS');
  });

  it('refuses a file that is not UTF-8 text, without showing anything of it', async () => {
    const user = userEvent.setup();
    await renderEdit();
    await user.upload(
      fileInput('PASS'),
      new File([NOT_UTF8], 'blob.bin', { type: 'application/octet-stream' }),
    );
    expect(
      await screen.findByText(
        '"blob.bin" is not UTF-8 text, so it cannot fill a text value. Binary values are changed with Kubernetes tooling.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Value of PASS')).toHaveValue('old-pass');
    expect(pageValues()).not.toContain('\uFFFD');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('refuses a file over 1 MiB from its size, before reading it', async () => {
    const user = userEvent.setup();
    const read = jest.spyOn(FileReader.prototype, 'readAsArrayBuffer');
    await renderEdit();
    await user.upload(
      fileInput('PASS'),
      new File([new Uint8Array(MAX_SECRET_BYTES + 1)], 'huge.txt'),
    );
    expect(
      await screen.findByText(
        '"huge.txt" is 1.01 MiB, over the 1 MiB that a whole Secret may hold.',
      ),
    ).toBeInTheDocument();
    expect(read).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Value of PASS')).toHaveValue('old-pass');
    read.mockRestore();
  });

  it('adds a binary file on create as canonical base64, counted by the meter', async () => {
    const user = userEvent.setup();
    const posts: unknown[] = [];
    server.use(
      http.post(`${baseUrl}/namespaces/team-a/secrets`, async ({ request }) => {
        posts.push(await request.json());
        return HttpResponse.json(
          { ...secret({}), name: 'keystore', resourceVersion: '1' },
          { status: 201 },
        );
      }),
    );
    await renderCreate();
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'keystore');
    // A text file may not fill a text value; the binary choice takes any bytes.
    await user.upload(fileInput('row 1'), new File([NOT_UTF8], 'store.p12'));
    expect(
      await screen.findByText(/Add it with "Add binary file" instead\./),
    ).toBeInTheDocument();

    await user.upload(
      screen.getByLabelText('Binary file'),
      new File([NOT_UTF8], 'store.p12'),
    );
    const key = await screen.findByLabelText('Key of binary file store.p12');
    expect(key).toHaveValue('store.p12');
    expect(
      screen.getByText(/Binary value from store\.p12 \(4 bytes\)/),
    ).toBeInTheDocument();
    const base64 = bytesToBase64(NOT_UTF8);
    expect(
      screen.getByText(
        sizeText(estimateSecretSize({}, { 'store.p12': base64 })),
      ),
    ).toBeInTheDocument();

    // Its key follows the key rule and may not repeat a text key.
    await user.type(screen.getByLabelText('Key 1'), 'store.p12');
    await user.type(screen.getByLabelText('Value of store.p12'), 'x');
    expect(
      screen.getAllByText('This key is used more than once.'),
    ).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Remove store.p12' }));

    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      name: 'keystore',
      type: 'Opaque',
      data: {},
      binaryData: { 'store.p12': base64 },
    });
  });
});
