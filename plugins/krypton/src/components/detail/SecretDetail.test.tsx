import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { RedactedSecret, SecretDto, messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router-dom';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  secretDto,
  summary,
} from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import { KryptonPage } from '../KryptonPage';
import { pageValues } from '../../__testUtils__/pageValues';

const server = setupServer();
const SECRET_VALUE = 'hunter2-very-secret';

/** The platform page at a Secret's address, as a link from the entity tab opens it. */
function renderAt(path: string) {
  return renderInTestApp(
    <KryptonApis>
      <Routes>
        <Route path="/krypton/*" element={<KryptonPage />} />
      </Routes>
    </KryptonApis>,
    {
      routeEntries: [path],
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}

/** Serves one Secret of the default cluster, counting value reads. */
function serve(
  dto = secretDto(),
  prefix = `${baseUrl}/namespaces/demo/secrets/db`,
) {
  const calls = { values: 0, puts: [] as unknown[] };
  const { data: _data, binaryData: _binary, ...meta } = dto;
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${prefix}/summary`, () => HttpResponse.json(meta)),
    http.get(prefix, () => {
      calls.values += 1;
      return HttpResponse.json(dto);
    }),
  );
  return calls;
}

const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;
const TYPED = 'typed-rotation-5d2c';

/** What update and restore answer to a caller who may not reveal the values. */
function redacted(dto: SecretDto): RedactedSecret {
  const { data: _data, binaryData: _binary, ...meta } = dto;
  return { ...meta, valuesOmitted: true };
}

/** Answers every PUT with `reply`, recording the bodies. */
function recordPuts(reply: () => Response) {
  const puts: unknown[] = [];
  server.use(
    http.put(secretUrl, async ({ request }) => {
      puts.push(await request.json());
      return reply();
    }),
  );
  return puts;
}

const viewerRules = {
  owners: ['user:default/bob'],
  editors: [],
  viewers: ['group:default/team-a'],
};

describe('SecretDetail', () => {
  registerMswTestHooks(server);

  it('shows the header and the values masked, with Edit for an owner', async () => {
    const calls = serve();
    await renderAt('/krypton/secret/demo/db');
    expect(
      await screen.findByRole('table', { name: 'Values' }),
    ).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(SECRET_VALUE);
    expect(screen.getAllByText('Hidden')).not.toHaveLength(0);
    // Values leave the cluster only when a person asks for them.
    expect(calls.values).toBe(0);
    const values = screen.getByRole('table', { name: 'Values' });
    const sizes = within(values)
      .getAllByRole('row')
      .slice(1)
      .map(row => within(row).getAllByRole('cell')[1].textContent);
    expect(sizes).toEqual(['19 bytes', '3 bytes']);

    // The version is among the key facts at the top; where the Secret lives follows them.
    const keyFacts = screen.getByText('Version').closest('dl') as HTMLElement;
    expect(within(keyFacts).getByText('3')).toBeInTheDocument();
    const facts = screen.getByText('Cluster').closest('dl') as HTMLElement;
    expect(within(facts).getByText('local')).toBeInTheDocument();
    expect(within(facts).getByText('demo')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Values' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('reads a value only when the user asks for it, and only that key', async () => {
    const asked: string[] = [];
    const dto = secretDto();
    const { data: _data, binaryData: _binary, ...meta } = dto;
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(`${secretUrl}/summary`, () => HttpResponse.json(meta)),
      http.get(`${secretUrl}/versions`, () => HttpResponse.json({ items: [] })),
      http.get(secretUrl, ({ request }) => {
        const keys = new URL(request.url).searchParams.get('keys');
        asked.push(keys ?? '(all)');
        const only = keys?.split(',');
        const pick = (map: Record<string, string>) =>
          Object.fromEntries(
            Object.entries(map).filter(([k]) => !only || only.includes(k)),
          );
        return HttpResponse.json({
          ...dto,
          data: pick(dto.data),
          binaryData: pick(dto.binaryData),
        });
      }),
    );
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    await screen.findByRole('table', { name: 'Values' });
    const row = (key: string) =>
      within(screen.getByRole('table', { name: 'Values' }))
        .getByRole('rowheader', { name: key })
        .closest('tr')!;
    // The tabs opened, nothing read.
    for (const tab of ['Access', 'History', 'Values']) {
      await user.click(screen.getByRole('tab', { name: tab }));
    }
    expect(asked).toEqual([]);

    await user.click(
      within(row('password')).getByRole('button', { name: 'Reveal' }),
    );
    expect(
      await within(row('password')).findByText(SECRET_VALUE),
    ).toBeInTheDocument();
    expect(asked).toEqual(['password']);
    // The other key stays unread and masked.
    expect(within(row('username')).getByText('Hidden')).toBeInTheDocument();
    // A second reveal of the same value reads nothing again.
    await user.click(
      within(row('password')).getByRole('button', { name: 'Hide' }),
    );
    await user.click(
      within(row('password')).getByRole('button', { name: 'Reveal' }),
    );
    expect(asked).toEqual(['password']);

    // Edit needs every value, and reads them when asked.
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(
      await screen.findByRole('form', { name: 'Edit Secret db' }),
    ).toBeInTheDocument();
    expect(asked).toEqual(['password', '(all)']);
  });

  it('shows the roles and what the user may do on the Access tab', async () => {
    serve();
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    await user.click(await screen.findByRole('tab', { name: 'Access' }));

    const panel = screen.getByRole('tabpanel');
    expect(
      within(panel).getByRole('list', { name: 'Owners' }),
    ).toHaveTextContent('group:default/team-a');
    expect(within(panel).getByText('Database credentials')).toBeInTheDocument();
    expect(
      within(panel).getByText('Owner: you may do everything with this Secret.'),
    ).toBeInTheDocument();
    const may = within(panel).getByRole('table', { name: 'What you may do' });
    const rowOf = (label: string) =>
      within(may)
        .getByRole('rowheader', { name: label })
        .closest('tr') as HTMLElement;
    expect(within(rowOf('Reveal values')).getByText('Yes')).toBeInTheDocument();
    expect(within(rowOf('Delete')).getByText('Yes')).toBeInTheDocument();
    expect(
      within(rowOf('Restart consuming apps')).getByText(
        `${messages.restartDisabled}.`,
      ),
    ).toBeInTheDocument();
    expect(
      within(panel).getByRole('button', {
        name: 'Edit access and description',
      }),
    ).toBeInTheDocument();
  });

  it('edits through SecretForm with the loaded revision and shows the saved Secret', async () => {
    serve();
    const puts: unknown[] = [];
    server.use(
      http.put(`${baseUrl}/namespaces/demo/secrets/db`, async ({ request }) => {
        puts.push(await request.json());
        return HttpResponse.json(
          secretDto({
            resourceVersion: '101',
            description: 'Rotated credentials',
          }),
        );
      }),
    );
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Secret db' });
    // Owners may change the rules in the same form.
    expect(within(form).getByLabelText('Owners')).toHaveValue(
      'group:default/team-a',
    );
    const description = within(form).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Rotated credentials');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      description: 'Rotated credentials',
    });
    expect(
      await screen.findByRole('table', { name: 'Values' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Rotated credentials')).toBeInTheDocument();
  });

  it('hides Edit from a viewer and says why', async () => {
    serve(secretDto({ access: viewerRules }));
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    expect(
      await screen.findByRole('table', { name: 'Values' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(
      screen.getByText(
        "You cannot edit this Secret: Only the Secret's editors and owners may do this.",
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Access' }));
    expect(
      screen.getByText('Viewer: you may read and reveal.'),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Edit access and description' }),
    ).toBeNull();
    expect(
      screen.getByText(
        /You cannot change the rules or the description: Only the Secret's owners may do this/,
      ),
    ).toBeInTheDocument();
  });

  it('addresses another cluster from the query and links back to its list', async () => {
    serve(
      secretDto({ cluster: 'prod' }),
      `${baseUrl}/clusters/prod/namespaces/demo/secrets/db`,
    );
    await renderAt('/krypton/secret/demo/db?cluster=prod');
    expect(
      await screen.findByRole('table', { name: 'Values' }),
    ).toBeInTheDocument();
    expect(screen.getByText('prod / demo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Krypton' })).toHaveAttribute(
      'href',
      '/krypton?cluster=prod&namespace=demo',
    );
  });

  it("shows the server's message for a Secret that cannot be read", async () => {
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(`${baseUrl}/namespaces/demo/secrets/gone/summary`, () =>
        HttpResponse.json({ error: messages.notFound }, { status: 404 }),
      ),
    );
    await renderAt('/krypton/secret/demo/gone');
    expect(await screen.findAllByText(messages.notFound)).not.toHaveLength(0);
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('refuses an address that cannot name a served Secret without asking the backend', async () => {
    await renderAt('/krypton/secret/demo/krypton-h-abc-v1');
    expect(
      screen.getByText(
        'History snapshots are reached through their live Secret.',
      ),
    ).toBeInTheDocument();
  });

  it('keeps the metadata visible when the values route refuses', async () => {
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(`${baseUrl}/namespaces/demo/secrets/token/summary`, () =>
        HttpResponse.json(
          summary({
            name: 'token',
            type: 'kubernetes.io/service-account-token',
          }),
        ),
      ),
      http.get(`${baseUrl}/namespaces/demo/secrets/token`, () =>
        HttpResponse.json(
          { error: messages.serviceAccountTokenValues },
          { status: 403 },
        ),
      ),
    );
    await renderAt('/krypton/secret/demo/token');
    expect(
      await screen.findByText(
        `You may see this Secret's metadata, but not its values. ${messages.serviceAccountTokenValues}`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Keys' })).toHaveTextContent(
      'password',
    );
  });

  describe('write answers without values', () => {
    it('keeps no values after a save answered redacted, and shows the new version', async () => {
      const calls = serve();
      const puts = recordPuts(() =>
        HttpResponse.json(
          redacted(secretDto({ resourceVersion: '101', version: 4 })),
        ),
      );
      const user = userEvent.setup();
      await renderAt('/krypton/secret/demo/db');
      await user.click(await screen.findByRole('button', { name: 'Edit' }));
      const form = screen.getByRole('form', { name: 'Edit Secret db' });
      const password = within(form).getByLabelText('Value of password');
      await user.clear(password);
      await user.type(password, TYPED);
      await user.click(within(form).getByRole('button', { name: 'Save' }));

      expect(
        await screen.findByText(
          /The change was saved: the Secret is now at version 4, revision 101\./,
        ),
      ).toBeInTheDocument();
      expect(puts).toEqual([
        {
          resourceVersion: '100',
          data: { username: 'app', password: TYPED },
        },
      ]);
      expect(screen.queryByRole('form')).toBeNull();
      expect(screen.queryByRole('table', { name: 'Values' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
      expect(
        screen.getByRole('button', { name: 'Reload values' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('table', { name: 'Keys' })).toHaveTextContent(
        'password',
      );
      expect(pageValues()).not.toContain(SECRET_VALUE);
      expect(pageValues()).not.toContain(TYPED);
      const facts = screen.getByText('Version').closest('dl') as HTMLElement;
      expect(within(facts).getByText('4')).toBeInTheDocument();
      // The backend just declined to return the values: they are not fetched behind its back.
      expect(calls.values).toBe(1);
    });

    it('drops the values of an answer whose rules no longer let the user reveal them', async () => {
      serve();
      const bobOnly = {
        owners: ['user:default/bob'],
        editors: [],
        viewers: [],
      };
      const puts = recordPuts(() =>
        HttpResponse.json(
          secretDto({ resourceVersion: '101', version: 4, access: bobOnly }),
        ),
      );
      const user = userEvent.setup();
      await renderAt('/krypton/secret/demo/db');
      expect(
        await screen.findByRole('table', { name: 'Values' }),
      ).toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: 'Access' }));
      await user.click(
        screen.getByRole('button', { name: 'Edit access and description' }),
      );
      const owners = within(
        screen.getByRole('form', {
          name: 'Edit access and description of db',
        }),
      ).getByLabelText('Owners');
      await user.clear(owners);
      await user.type(owners, 'user:default/bob');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]).toEqual({
        resourceVersion: '100',
        access: { owners: ['user:default/bob'] },
      });
      expect(
        await screen.findByRole('list', { name: 'Owners' }),
      ).toHaveTextContent('user:default/bob');

      await user.click(screen.getByRole('tab', { name: 'Values' }));
      expect(
        screen.getByText(
          /The change was saved: the Secret is now at version 4/,
        ),
      ).toBeInTheDocument();
      expect(screen.queryByRole('table', { name: 'Values' })).toBeNull();
      expect(screen.queryByRole('button', { name: /^Reveal/ })).toBeNull();
      expect(pageValues()).not.toContain(SECRET_VALUE);
    });
  });
});
