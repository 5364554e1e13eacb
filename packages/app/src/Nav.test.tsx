import { renderTestApp } from '@backstage/frontend-test-utils';
import kryptonPlugin from '@krypton/plugin-krypton/alpha';
import { screen } from '@testing-library/react';

describe('the sidebar', () => {
  it('links to the Krypton page', async () => {
    renderTestApp({ features: [kryptonPlugin] });
    expect(
      await screen.findByRole('link', { name: /Krypton/ }),
    ).toHaveAttribute('href', '/krypton');
  });
});
