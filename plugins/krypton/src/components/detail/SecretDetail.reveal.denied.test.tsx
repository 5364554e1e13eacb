import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  policy,
  secretDto,
} from '../../__testUtils__/krypton';
import { SecretDetail } from './SecretDetail';
import { pageValues } from '../../__testUtils__/pageValues';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;
const SECRET_VALUE = 'hunter2-very-secret';

describe('SecretDetail for an owner the permission policy denies reveal', () => {
  registerMswTestHooks(server);

  it('edits the description from the metadata, and keeps no values even from an answer that carries them', async () => {
    const { data: _data, binaryData: _binary, ...meta } = secretDto();
    const calls = { values: 0, puts: [] as unknown[] };
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(`${secretUrl}/summary`, () =>
        HttpResponse.json({ ...meta, policy: policy('reveal') }),
      ),
      http.get(secretUrl, () => {
        calls.values += 1;
        return HttpResponse.json({ error: 'not expected' }, { status: 403 });
      }),
      // A backend that sent the values anyway: the user's decisions still keep none of them.
      http.put(secretUrl, async ({ request }) => {
        calls.puts.push(await request.json());
        return HttpResponse.json(
          secretDto({
            resourceVersion: '101',
            version: 4,
            description: 'Owner note',
          }),
        );
      }),
    );
    const user = userEvent.setup();
    await renderInTestApp(
      <KryptonApis>
        <SecretDetail location={{ namespace: 'demo', name: 'db' }} />
      </KryptonApis>,
      // The facts link the owners to their catalog pages, as every app mounts them.
      { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
    );
    await user.click(await screen.findByRole('tab', { name: 'Access' }));
    await user.click(
      screen.getByRole('button', { name: 'Edit access and description' }),
    );
    const form = await screen.findByRole('form', {
      name: 'Edit access and description of db',
    });
    expect(
      within(form).getByText(/the values stay exactly as they are/),
    ).toBeInTheDocument();
    expect(within(form).queryByLabelText(/^Value of/)).toBeNull();
    const description = within(form).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Owner note');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(calls.puts).toHaveLength(1));
    expect(calls.puts[0]).toEqual({
      resourceVersion: '100',
      description: 'Owner note',
    });
    expect(await screen.findAllByText('Owner note')).not.toHaveLength(0);
    expect(screen.queryByRole('form')).toBeNull();
    const facts = screen
      .getByText('Version', { selector: 'dt' })
      .closest('dl') as HTMLElement;
    expect(within(facts).getByText('4')).toBeInTheDocument();
    expect(pageValues()).not.toContain(SECRET_VALUE);

    await user.click(screen.getByRole('tab', { name: 'Values' }));
    expect(
      screen.getByText(
        /You may see this Secret's metadata, but not its values/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Values' })).toBeNull();
    expect(pageValues()).not.toContain(SECRET_VALUE);
    // Neither the form nor the view asked for the values.
    expect(calls.values).toBe(0);
  });
});
