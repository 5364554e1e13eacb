import { renderInTestApp } from '@backstage/test-utils';
import { SecretOwner } from '@krypton/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { OwnershipBanner, OwnershipBannerProps } from './OwnershipBanner';

const eso: SecretOwner = {
  tool: 'external-secrets',
  kind: 'ExternalSecret',
  name: 'db-creds',
  outcome: 'reverted-at-once',
  evidence: ['ownerReferences'],
  edits: 'refused',
};

const AT = { namespace: 'demo', name: 'db' };

function render(props: OwnershipBannerProps) {
  return renderInTestApp(<OwnershipBanner {...props} />);
}

describe('OwnershipBanner', () => {
  it('says who owns the Secret, what an edit does, what Krypton does and what to do instead', async () => {
    await render({ secret: { ...AT, owner: eso } });
    const banner = screen.getByRole('region', {
      name: 'Owned by External Secrets',
    });
    expect(banner).toHaveTextContent('Owner: ExternalSecret db-creds');
    expect(banner).toHaveTextContent(
      'What an edit here does: An edit here is undone within seconds: External Secrets watches this Secret and writes its own data back.',
    );
    expect(banner).toHaveTextContent(
      'What Krypton does: Krypton does not change it: it does not update, restore, adopt or delete a Secret that another tool owns.',
    );
    expect(banner).toHaveTextContent(
      'What to do instead: Change the value in the external store, then have the ExternalSecret db-creds sync it now:',
    );
    const command = banner.querySelector('code');
    expect(command).toHaveTextContent(
      'kubectl annotate externalsecret db-creds -n demo force-sync=$(date +%s) --overwrite',
    );
    // A change through Krypton would not last: a warning.
    expect(banner.className).toMatch(/MuiAlert-standardWarning/);
  });

  describe('copies the command', () => {
    const writeText = jest.fn<Promise<void>, [string]>();
    beforeEach(() => {
      writeText.mockReset();
      writeText.mockResolvedValue(undefined);
      // jsdom has no clipboard; the button must use exactly this API.
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText },
        configurable: true,
      });
    });

    const certManager: SecretOwner = {
      ...eso,
      tool: 'cert-manager',
      kind: 'Certificate',
      name: 'site-tls',
      outcome: 'replaced-at-once',
    };

    it('and says so', async () => {
      await render({ secret: { ...AT, owner: certManager } });
      const banner = screen.getByRole('region', {
        name: 'Owned by cert-manager',
      });
      fireEvent.click(
        within(banner).getByRole('button', { name: 'Copy the command' }),
      );
      expect(writeText).toHaveBeenCalledWith('cmctl renew site-tls -n demo');
      expect(await within(banner).findByText('Copied')).toHaveAttribute(
        'role',
        'status',
      );
    });

    it('or says that it could not', async () => {
      writeText.mockRejectedValue(new Error('denied'));
      await render({ secret: { ...AT, owner: certManager } });
      fireEvent.click(screen.getByRole('button', { name: 'Copy the command' }));
      expect(await screen.findByText('Could not copy')).toBeInTheDocument();
    });
  });

  it('leaves out the owning object and the steps at the source when compact', async () => {
    await render({ secret: { ...AT, owner: eso }, compact: true });
    const banner = screen.getByRole('region', {
      name: 'Owned by External Secrets',
    });
    expect(banner).toHaveTextContent('An edit here is undone within seconds');
    expect(banner).toHaveTextContent('What Krypton does:');
    expect(banner).not.toHaveTextContent('Owner: ExternalSecret db-creds');
    expect(banner).not.toHaveTextContent('What to do instead');
    expect(banner.querySelector('code')).toBeNull();
  });

  it('informs where an edit is kept, naming the setting, and offers no step at the source', async () => {
    await render({
      secret: {
        ...AT,
        owner: {
          tool: 'flux',
          kind: 'Kustomization',
          name: 'apps',
          namespace: 'flux-system',
          outcome: 'kept',
          evidence: ['kustomize.toolkit.fluxcd.io/name'],
          settings: ['kustomize.toolkit.fluxcd.io/reconcile=disabled'],
          edits: 'allowed',
        },
      },
    });
    const banner = screen.getByRole('region', { name: 'Owned by Flux' });
    expect(banner).toHaveTextContent(
      'Owner: Kustomization apps in namespace flux-system',
    );
    expect(banner).toHaveTextContent(
      'An edit here is kept: kustomize.toolkit.fluxcd.io/reconcile=disabled on this Secret tells Flux to leave it.',
    );
    expect(banner).toHaveTextContent(
      'Krypton changes it like any other Secret.',
    );
    expect(banner).not.toHaveTextContent('What to do instead');
    expect(banner.className).toMatch(/MuiAlert-standardInfo/);
  });

  it('warns of the field conflict with a server-side apply, with or without an owner', async () => {
    const { unmount } = await render({
      secret: {
        ...AT,
        owner: {
          ...eso,
          tool: 'flux',
          kind: 'Kustomization',
          name: 'apps',
          outcome: 'kept',
          edits: 'allowed',
        },
        dataAppliedBy: ['kustomize-controller'],
      },
    });
    const owned = screen.getByRole('region', { name: 'Owned by Flux' });
    expect(owned).toHaveTextContent(
      'After a change of their keys here, the next server-side apply by kustomize-controller of another value would fail on a field conflict with krypton, unless it forces.',
    );
    // The edit lasts, but the owner's next apply fails: a warning.
    expect(owned.className).toMatch(/MuiAlert-standardWarning/);
    unmount();

    await render({ secret: { ...AT, dataAppliedBy: ['kubectl'] } });
    const applied = screen.getByRole('region', {
      name: 'Applied with server-side apply',
    });
    expect(applied).toHaveTextContent(
      'After a change of their keys here, the next server-side apply by kubectl of another value would fail on a field conflict with krypton, unless it forces.',
    );
    expect(applied).not.toHaveTextContent('What Krypton does');
  });

  it('shows nothing for a Secret that nothing claims', async () => {
    await render({ secret: AT });
    expect(screen.queryByRole('region')).toBeNull();
  });
});
