import { renderInTestApp } from '@backstage/frontend-test-utils';
import { EntitySwitch } from '@backstage/plugin-catalog';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { isKryptonAvailable } from '@krypton/plugin-krypton';
import { screen } from '@testing-library/react';

type Entity = Parameters<typeof isKryptonAvailable>[0];

const entity = (annotations: Record<string, string>): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'payments', annotations },
});

/** A legacy entity page's switch, as the plugin's README shows it. */
function renderSwitch(annotations: Record<string, string>) {
  return renderInTestApp(
    <EntityProvider entity={entity(annotations)}>
      <EntitySwitch>
        <EntitySwitch.Case if={isKryptonAvailable}>
          <p>Krypton card</p>
        </EntitySwitch.Case>
        <EntitySwitch.Case>
          <p>No Secrets</p>
        </EntitySwitch.Case>
      </EntitySwitch>
    </EntityProvider>,
  );
}

describe('isKryptonAvailable in the legacy EntitySwitch', () => {
  it('picks the Krypton case for an entity that links Secrets', async () => {
    renderSwitch({ 'krypton.io/secrets': 'payments/db' });
    expect(await screen.findByText('Krypton card')).toBeInTheDocument();
    expect(screen.queryByText('No Secrets')).toBeNull();
  });

  it('falls through for an entity that links none', async () => {
    renderSwitch({ 'backstage.io/kubernetes-id': 'payments' });
    expect(await screen.findByText('No Secrets')).toBeInTheDocument();
    expect(screen.queryByText('Krypton card')).toBeNull();
  });
});
