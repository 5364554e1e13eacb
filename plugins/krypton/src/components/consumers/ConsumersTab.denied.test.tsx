import { registerMswTestHooks } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { setupServer } from 'msw/node';
import {
  catalogEntities,
  renderConsumers,
  serveConsumers,
} from './__testUtils__/consumers';
import { policy, summary } from '../../__testUtils__/krypton';

const server = setupServer();

describe('ConsumersTab without the restart permission', () => {
  registerMswTestHooks(server);

  it('shows the dry run and the last result, but no way to restart', async () => {
    const calls = serveConsumers(server, {});
    await renderConsumers({
      entities: catalogEntities,
      summary: summary({ policy: policy('restart') }),
    });
    const reason = await screen.findByText(
      'You cannot restart the consumers: The Backstage permission policy does not grant krypton.secret.restart.',
    );
    const button = screen.getByRole('button', { name: 'Restart consumers' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-describedby', reason.id);
    expect(
      await screen.findByRole('table', {
        name: 'Consumers: component:payments',
      }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('No restart requested through Krypton yet.'),
    ).toBeInTheDocument();
    expect(calls.posts).toBe(0);
  });
});
