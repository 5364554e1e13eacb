import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  policy,
  summary,
} from '../../__testUtils__/krypton';
import { SecretDetail } from './SecretDetail';

const server = setupServer();

describe('SecretDetail without reveal and update permissions', () => {
  registerMswTestHooks(server);

  it('shows the summary and why the values are not shown, without reading them', async () => {
    let valueReads = 0;
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(`${baseUrl}/namespaces/demo/secrets/db/summary`, () =>
        HttpResponse.json(
          summary({
            binaryKeys: ['blob'],
            keys: ['blob', 'password'],
            policy: policy('reveal', 'update', 'manageAccess'),
          }),
        ),
      ),
      http.get(`${baseUrl}/namespaces/demo/secrets/db`, () => {
        valueReads += 1;
        return HttpResponse.json({ error: 'not expected' }, { status: 500 });
      }),
    );
    const asked: string[] = [];
    await renderInTestApp(
      <KryptonApis
        authorize={(permission, resourceRef) => {
          asked.push(`${permission} ${resourceRef ?? ''}`);
          return true;
        }}
      >
        <SecretDetail location={{ namespace: 'demo', name: 'db' }} />
      </KryptonApis>,
      // The facts link the owners to their catalog pages, as every app mounts them.
      { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
    );
    expect(
      await screen.findByText(
        /You may see this Secret's metadata, but not its values\./,
      ),
    ).toHaveTextContent(
      'The Backstage permission policy does not grant krypton.secret.reveal.',
    );
    const keys = screen.getByRole('table', { name: 'Keys' });
    expect(
      within(keys).getByRole('rowheader', { name: 'blob' }),
    ).toBeInTheDocument();
    expect(within(keys).getByText('binary')).toBeInTheDocument();
    expect(screen.getByText('Database credentials')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(valueReads).toBe(0);
    // The summary carries the policy's answers, judged by the backend on the Secret it read as
    // the user: the permission backend is never asked about a named Secret.
    expect(asked.filter(a => a.endsWith('local/demo/db'))).toEqual([]);
  });
});
