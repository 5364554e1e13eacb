import { TestApiProvider, renderInTestApp } from '@backstage/test-utils';
import {
  OWNER_SYNC_MESSAGES,
  OwnerSyncOffer,
  OwnerSyncResult,
  SecretOwner,
} from '@krypton/core';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { responseError } from '../../api/responseError';
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

  describe("offers External Secrets' sync", () => {
    const SYNC_AT: SecretLocation = {
      cluster: 'prod',
      namespace: 'demo',
      name: 'db',
    };
    const TARGET = {
      tool: 'external-secrets',
      kind: 'ExternalSecret',
      name: 'db-creds',
    } as const;
    const RESULT: OwnerSyncResult = {
      target: TARGET,
      annotation: { key: 'force-sync', value: '1796464800' },
      requestedAt: '2026-12-05T10:00:00.000Z',
      message: 'External Secrets was asked to read the values again.',
    };
    const REQUESTED =
      'External Secrets was asked to read ExternalSecret db-creds from its store again (force-sync=1796464800). The Secret changes once its controller has done so.';

    const getOwnerSync = jest.fn<Promise<OwnerSyncOffer>, [SecretLocation]>();
    const requestOwnerSync = jest.fn<
      Promise<OwnerSyncResult>,
      [SecretLocation]
    >();
    beforeEach(() => {
      getOwnerSync.mockReset();
      requestOwnerSync.mockReset();
    });

    const refused = (
      refusal: NonNullable<OwnerSyncOffer['refusal']>,
    ): OwnerSyncOffer => ({
      available: false,
      ...(refusal === 'not_supported' ? {} : { target: TARGET }),
      refusal,
      message: OWNER_SYNC_MESSAGES[refusal],
    });

    async function renderWithApi(props: OwnershipBannerProps) {
      const view = await renderInTestApp(
        <TestApiProvider
          apis={[[kryptonApiRef, { getOwnerSync, requestOwnerSync }]]}
        >
          <OwnershipBanner {...props} />
        </TestApiProvider>,
      );
      const banner = screen.getByRole('region', { name: /^Owned by / });
      return Object.assign(banner, { unmount: view.unmount });
    }

    /** Lets the offer's answer reach the screen, for states that draw nothing new. */
    const settle = () => act(() => Promise.resolve());

    it('with a button that asks once, is busy meanwhile, and says what it asked', async () => {
      getOwnerSync.mockResolvedValue({ available: true, target: TARGET });
      let answer: (result: OwnerSyncResult) => void = () => undefined;
      requestOwnerSync.mockReturnValue(
        new Promise(resolve => {
          answer = resolve;
        }),
      );
      const banner = await renderWithApi({
        secret: { ...AT, owner: eso },
        syncAt: SYNC_AT,
      });
      const button = await within(banner).findByRole('button', {
        name: 'Sync from the store now',
      });
      expect(getOwnerSync).toHaveBeenCalledTimes(1);
      expect(getOwnerSync).toHaveBeenCalledWith(SYNC_AT);

      fireEvent.click(button);
      fireEvent.click(button);
      const busy = within(banner).getByRole('button', {
        name: 'Asking External Secrets…',
      });
      expect(busy).toBeDisabled();
      expect(requestOwnerSync).toHaveBeenCalledTimes(1);
      expect(requestOwnerSync).toHaveBeenCalledWith(SYNC_AT);

      await act(async () => answer(RESULT));
      const status = within(banner).getByText(REQUESTED);
      expect(status).toHaveAttribute('role', 'status');
      expect(
        within(banner).getByRole('button', { name: 'Sync from the store now' }),
      ).toBeEnabled();
      expect(requestOwnerSync).toHaveBeenCalledTimes(1);
    });

    it("with the backend's message when the request is refused", async () => {
      getOwnerSync.mockResolvedValue({ available: true, target: TARGET });
      requestOwnerSync.mockRejectedValue(
        await responseError(
          new Response(
            JSON.stringify({ error: OWNER_SYNC_MESSAGES.forbidden }),
            { status: 403, headers: { 'content-type': 'application/json' } },
          ),
        ),
      );
      const banner = await renderWithApi({
        secret: { ...AT, owner: eso },
        syncAt: SYNC_AT,
      });
      fireEvent.click(
        await within(banner).findByRole('button', {
          name: 'Sync from the store now',
        }),
      );
      const status = await within(banner).findByText(
        `Krypton could not ask External Secrets to sync: ${OWNER_SYNC_MESSAGES.forbidden}`,
      );
      expect(status).toHaveAttribute('role', 'status');
      expect(within(banner).queryByText(REQUESTED)).toBeNull();
    });

    it.each<[NonNullable<OwnerSyncOffer['refusal']>, string]>([
      [
        'forbidden',
        'Kubernetes does not let you patch the ExternalSecret db-creds, so Krypton cannot ask it to sync for you; the command above needs that right too.',
      ],
      [
        'identity',
        'This installation acts on Kubernetes as its own service account, and Krypton asks an owner to sync only as you: run the command above.',
      ],
    ])(
      'and, refused (%s), says why instead of a button',
      async (refusal, why) => {
        getOwnerSync.mockResolvedValue(refused(refusal));
        const banner = await renderWithApi({
          secret: { ...AT, owner: eso },
          syncAt: SYNC_AT,
        });
        expect(await within(banner).findByText(why)).toBeInTheDocument();
        expect(
          within(banner).queryByRole('button', { name: /Sync/ }),
        ).toBeNull();
        // The command stays the way to do it.
        expect(banner.querySelector('code')).toHaveTextContent(
          'kubectl annotate externalsecret db-creds -n demo',
        );
      },
    );

    it.each<[string, () => void]>([
      [
        'where no ExternalSecret controls the Secret',
        () => getOwnerSync.mockResolvedValue(refused('not_supported')),
      ],
      [
        'when the offer cannot be read',
        () => getOwnerSync.mockRejectedValue(new TypeError('Failed to fetch')),
      ],
    ])('not at all %s', async (_case, answer) => {
      answer();
      // The banner as a dialog shows it, without a location: what the page must show too.
      const plain = await renderWithApi({ secret: { ...AT, owner: eso } });
      const expected = plain.textContent;
      plain.unmount();
      expect(getOwnerSync).not.toHaveBeenCalled();

      const banner = await renderWithApi({
        secret: { ...AT, owner: eso },
        syncAt: SYNC_AT,
      });
      expect(getOwnerSync).toHaveBeenCalledWith(SYNC_AT);
      await settle();
      expect(within(banner).queryByRole('button', { name: /Sync/ })).toBeNull();
      expect(banner.textContent).toBe(expected);
    });

    const helm: SecretOwner = {
      ...eso,
      tool: 'helm',
      kind: 'Release',
      name: 'web',
      outcome: 'reverted-at-upgrade',
    };
    it.each<[string, OwnershipBannerProps]>([
      [
        'in a form or a confirmation',
        { secret: { ...AT, owner: eso }, compact: true, syncAt: SYNC_AT },
      ],
      ['without a location', { secret: { ...AT, owner: eso } }],
      [
        'for another owner',
        { secret: { ...AT, owner: helm }, syncAt: SYNC_AT },
      ],
      [
        'for an ExternalSecret the Secret does not name',
        {
          secret: { ...AT, owner: { ...eso, name: undefined } },
          syncAt: SYNC_AT,
        },
      ],
    ])('without asking %s', async (_case, props) => {
      getOwnerSync.mockResolvedValue({ available: true, target: TARGET });
      const banner = await renderWithApi(props);
      await settle();
      expect(within(banner).queryByRole('button', { name: /Sync/ })).toBeNull();
      expect(getOwnerSync).not.toHaveBeenCalled();
    });
  });
});
