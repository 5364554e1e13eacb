import { registerMswTestHooks } from '@backstage/test-utils';
import {
  SecretChangedSignal,
  secretSignalChannel,
} from '@krypton/plugin-krypton-common';
import { SecretDto } from '@krypton/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { baseUrl, kryptonConfig, secretDto } from '../../__testUtils__/krypton';
import { TestSignals, renderSecretPage } from '../../__testUtils__/secretPage';
import { POLL_INTERVAL_MS, SIGNAL_SETTLE_MS } from './ChangesElsewhere';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;
const CHANNEL = secretSignalChannel('uid-db');
const DRAFT = 'draft-kept-4e1a';

const changed = (
  resourceVersion: string | null,
  version: number | null,
  event: SecretChangedSignal['event'] = 'update',
): SecretChangedSignal => ({
  cluster: 'local',
  namespace: 'demo',
  name: 'db',
  event,
  resourceVersion,
  version,
});

/** Serves the live Secret as `live()` says at the time, and its history, counting the reads. */
function serve(state: { live: () => SecretDto | undefined }) {
  const calls = { summaries: 0, values: 0, lists: 0 };
  const answer = (withValues: boolean) => {
    const dto = state.live();
    if (!dto) {
      return HttpResponse.json({ error: 'Secret not found' }, { status: 404 });
    }
    const { data: _data, binaryData: _binary, ...meta } = dto;
    return HttpResponse.json(withValues ? dto : meta);
  };
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${secretUrl}/summary`, () => {
      calls.summaries += 1;
      return answer(false);
    }),
    http.get(secretUrl, () => {
      calls.values += 1;
      return answer(true);
    }),
    http.get(`${secretUrl}/versions`, () => {
      calls.lists += 1;
      return HttpResponse.json({ items: [] });
    }),
  );
  return calls;
}

const settle = () =>
  act(() => new Promise(r => setTimeout(r, SIGNAL_SETTLE_MS + 300)));

describe('changes made elsewhere', () => {
  registerMswTestHooks(server);
  afterEach(() => jest.restoreAllMocks());

  it('tells an open edit form at once through the signal, keeping the draft', async () => {
    let live = secretDto();
    serve({ live: () => live });
    const signals = new TestSignals();
    const user = userEvent.setup();
    await renderSecretPage(signals);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Secret db' });
    const password = within(form).getByLabelText('Value of password');
    await user.clear(password);
    await user.type(password, DRAFT);
    expect(signals.channels()).toEqual([CHANNEL]);

    live = secretDto({ resourceVersion: '101', version: 4 });
    signals.push(CHANNEL, changed('101', 4));

    expect(
      await screen.findByText(
        /Changed elsewhere: this Secret was changed outside this page\. It is now version 4\. Your edit still starts from the version you opened/,
        undefined,
        { timeout: SIGNAL_SETTLE_MS + 2000 },
      ),
    ).toBeInTheDocument();
    expect(
      await within(form).findByText(
        /Changed elsewhere\. A newer version of this Secret exists/,
      ),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Value of password')).toHaveValue(DRAFT);
  });

  it('takes the signal of the page’s own write, whose answer it already shows, as no news', async () => {
    const calls = serve({ live: () => secretDto() });
    const signals = new TestSignals();
    await renderSecretPage(signals);
    await screen.findByRole('button', { name: 'Edit' });
    const reads = calls.values;

    signals.push(CHANNEL, changed('100', 3));
    await settle();

    expect(screen.queryByText(/Changed elsewhere/)).toBeNull();
    expect(calls.values).toBe(reads);
  });

  it('reloads the open History tab, and says when the Secret was deleted elsewhere', async () => {
    let live: SecretDto | undefined = secretDto();
    const calls = serve({ live: () => live });
    const signals = new TestSignals();
    const user = userEvent.setup();
    await renderSecretPage(signals);
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    await waitFor(() => expect(calls.lists).toBe(1));

    live = secretDto({ resourceVersion: '102', version: 4 });
    signals.push(CHANNEL, changed('102', 4, 'restore'));
    await waitFor(() => expect(calls.lists).toBe(2), {
      timeout: SIGNAL_SETTLE_MS + 2000,
    });

    live = undefined;
    signals.push(CHANNEL, changed(null, null, 'delete'));
    expect(
      await screen.findByText(
        'Changed elsewhere: this Secret was deleted outside this page.',
        undefined,
        { timeout: SIGNAL_SETTLE_MS + 2000 },
      ),
    ).toBeInTheDocument();
  });

  it('polls the summary instead where the signals plugin is not installed', async () => {
    const polls: Array<() => void> = [];
    const setIntervalReal = global.setInterval;
    jest.spyOn(global, 'setInterval').mockImplementation(((
      callback: () => void,
      ms?: number,
    ) => {
      if (ms === POLL_INTERVAL_MS) polls.push(callback);
      return setIntervalReal(callback, ms);
    }) as typeof setInterval);
    let live = secretDto();
    const calls = serve({ live: () => live });
    await renderSecretPage();
    await screen.findByRole('button', { name: 'Edit' });
    await waitFor(() => expect(polls).toHaveLength(1));
    const before = calls.summaries;

    // An unchanged Secret: a poll reads the summary, and the page says nothing.
    await act(async () => polls[0]());
    await waitFor(() => expect(calls.summaries).toBe(before + 1));
    expect(screen.queryByText(/Changed elsewhere/)).toBeNull();

    live = secretDto({ resourceVersion: '103', version: 5 });
    await act(async () => polls[0]());
    expect(
      await screen.findByText(
        'Changed elsewhere: this Secret was changed outside this page. It is now version 5.',
      ),
    ).toBeInTheDocument();
  });
});
