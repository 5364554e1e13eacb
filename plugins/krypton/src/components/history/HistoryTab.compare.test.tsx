import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { KryptonApis, kryptonConfig } from '../../__testUtils__/krypton';
import {
  Harness,
  HarnessProps,
  LIVE,
  LIVE_PASSWORD,
  V1_PASSWORD,
  V2_PASSWORD,
  allowAll,
  historyRoutes,
  serveHistory,
  versionDto,
  versionSummary,
} from './__testUtils__/history';

const server = setupServer();

function render(props: HarnessProps = {}) {
  return renderInTestApp(
    <KryptonApis>
      <Harness {...props} />
    </KryptonApis>,
    historyRoutes,
  );
}

function rowOf(table: HTMLElement, name: string): HTMLElement {
  const tr = within(table).getByRole('rowheader', { name }).closest('tr');
  if (!tr) throw new Error(`no row ${name}`);
  return tr;
}

const pickers = () =>
  within(screen.getByRole('group', { name: 'Versions to compare' }));

/** A config file whose password line changes between the versions. */
const CONFIG_V1 =
  'host=db\nport=5432\nuser=app\npassword=line-secret-one\ntimeout=30\n';
const CONFIG_V2 =
  'host=db\nport=6432\nuser=app\npassword=line-secret-two\ntimeout=30\n';

function serveConfigFiles(state: ReturnType<typeof serveHistory>['state']) {
  state.versions = {
    2: versionDto(2, { data: { config: CONFIG_V2 }, binaryData: {} }),
    1: versionDto(1, { data: { config: CONFIG_V1 }, binaryData: {} }),
  };
  state.list = () =>
    HttpResponse.json({
      items: [
        versionSummary(2, { keys: ['config'] }),
        versionSummary(1, { keys: ['config'] }),
      ],
    });
}

describe('HistoryTab: comparing any two sides', () => {
  registerMswTestHooks(server);

  it('compares two chosen versions on request only, masked until revealed', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    await screen.findByRole('table', { name: 'Versions' });

    // The newest version against live is the default; nothing is read before Compare.
    expect(pickers().getByLabelText('From')).toHaveValue('2');
    expect(pickers().getByLabelText('To')).toHaveValue('live');
    await user.selectOptions(pickers().getByLabelText('From'), 'Version 1');
    await user.selectOptions(pickers().getByLabelText('To'), 'Version 2');
    expect(calls.versionReads).toEqual([]);

    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', {
      name: 'Changes from version 1 to version 2',
    });
    expect([...calls.versionReads].sort()).toEqual([1, 2]);
    expect(within(rowOf(diff, 'legacy')).getByText('Removed')).toBeTruthy();
    expect(within(rowOf(diff, 'password')).getByText('Changed')).toBeTruthy();
    expect(within(rowOf(diff, 'blob')).getByText('Unchanged')).toBeTruthy();
    expect(document.body.textContent).not.toContain(V1_PASSWORD);
    expect(document.body.textContent).not.toContain(V2_PASSWORD);

    await user.click(
      within(diff).getByRole('button', {
        name: 'Reveal the value of password in version 1',
      }),
    );
    expect(within(diff).getByText(V1_PASSWORD)).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(V2_PASSWORD);
  });

  it('compares live against a version, swaps the sides, and refuses one side against itself', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    await screen.findByRole('table', { name: 'Versions' });

    await user.selectOptions(pickers().getByLabelText('From'), 'Version 1');
    await user.click(
      pickers().getByRole('button', { name: 'Swap the two sides' }),
    );
    expect(pickers().getByLabelText('From')).toHaveValue('live');
    expect(pickers().getByLabelText('To')).toHaveValue('1');
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', {
      name: 'Changes from live to version 1',
    });
    // Live's values are the ones the page read; only version 1 is read here.
    expect(calls.versionReads).toEqual([1]);
    expect(calls.liveReads).toBe(0);
    // legacy is only in version 1, so from live it is added.
    expect(within(rowOf(diff, 'legacy')).getByText('Added')).toBeTruthy();
    await user.click(
      within(diff).getByRole('button', {
        name: 'Reveal the value of password in live',
      }),
    );
    expect(within(diff).getByText(LIVE_PASSWORD)).toBeInTheDocument();

    await user.selectOptions(pickers().getByLabelText('From'), 'Version 1');
    expect(pickers().getByRole('button', { name: 'Compare' })).toBeDisabled();
    expect(
      pickers().getByRole('button', { name: 'Compare' }),
    ).toHaveAccessibleDescription('Pick two different sides to compare.');
    // The earlier comparison stays until Compare is pressed again.
    expect(
      screen.getByRole('table', { name: 'Changes from live to version 1' }),
    ).toBeInTheDocument();
  });

  it('says why only keys are compared when live values are not loaded', async () => {
    serveHistory(server);
    const user = userEvent.setup();
    await render({ summaryOnly: true });
    await screen.findByRole('table', { name: 'Versions' });
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', {
      name: 'Changes from version 2 to live',
    });
    expect(
      screen.getByText(
        'Only key names are compared: the live values are not loaded.',
      ),
    ).toBeInTheDocument();
    expect(
      within(rowOf(diff, 'password')).getByText(
        'In both (values not compared)',
      ),
    ).toBeInTheDocument();
  });

  it('offers no comparison to a user who may not reveal values, and reads nothing', async () => {
    const { calls } = serveHistory(server);
    await render({
      summaryOnly: true,
      decisions: allowAll({
        reveal: { allowed: false, reason: 'Only owners may reveal.' },
      }),
    });
    await screen.findByRole('table', { name: 'Versions' });
    const compare = pickers().getByRole('button', { name: 'Compare' });
    expect(compare).toBeDisabled();
    expect(compare).toHaveAccessibleDescription(/^You may not reveal values/);
    expect(pickers().getByLabelText('From')).toBeDisabled();
    expect(calls.versionReads).toEqual([]);
  });

  it('shows a failed version read with Retry', async () => {
    const { state } = serveHistory(server);
    state.versions = { 2: state.versions[2] };
    const user = userEvent.setup();
    await render();
    await screen.findByRole('table', { name: 'Versions' });
    await user.selectOptions(pickers().getByLabelText('To'), 'Version 1');
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    expect(
      await screen.findByText(/Could not load the values of version 1/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('HistoryTab: line changes of multi-line values', () => {
  registerMswTestHooks(server);

  it('shows a line diff under a changed multi-line value, masked until revealed', async () => {
    const { state } = serveHistory(server);
    serveConfigFiles(state);
    const user = userEvent.setup();
    await render();
    await screen.findByRole('table', { name: 'Versions' });
    await user.selectOptions(pickers().getByLabelText('From'), 'Version 1');
    await user.selectOptions(pickers().getByLabelText('To'), 'Version 2');
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', {
      name: 'Changes from version 1 to version 2',
    });

    // Masked: no line of either side is in the page, and no count of changed lines either.
    expect(within(diff).getByText(/: hidden/)).toBeInTheDocument();
    for (const text of ['line-secret-one', 'line-secret-two', 'port=']) {
      expect(document.body.textContent).not.toContain(text);
    }
    expect(document.body.textContent).not.toMatch(/lines? removed/);

    await user.click(
      within(diff).getByRole('button', {
        name: 'Reveal line changes of config from version 1 to version 2',
      }),
    );
    const lines = within(diff).getByRole('table', {
      name: 'Line changes of config',
    });
    expect(
      within(diff).getByText('2 lines removed, 2 lines added.'),
    ).toBeTruthy();
    // Line before, line after, the marker and the text (with its spoken change).
    const rows = within(lines)
      .getAllByRole('row')
      .slice(1)
      .map(row => row.textContent);
    expect(rows).toEqual([
      '11 host=db',
      '2−Removed: port=5432',
      '2+Added: port=6432',
      '33 user=app',
      '4−Removed: password=line-secret-one',
      '4+Added: password=line-secret-two',
      '55 timeout=30',
    ]);

    await user.click(
      within(diff).getByRole('button', {
        name: 'Hide line changes of config from version 1 to version 2',
      }),
    );
    expect(document.body.textContent).not.toContain('line-secret-one');
  });

  it('folds unchanged lines far from a change, and says a too-large value is too different', async () => {
    const { state } = serveHistory(server);
    const long = (changed: string) =>
      Array.from({ length: 30 }, (_, i) =>
        i === 14 ? changed : `line ${i + 1}`,
      ).join('\n');
    const huge = 'x\n'.repeat(10_001);
    state.versions = {
      2: versionDto(2, {
        data: { notes: long('line fifteen'), dump: `${huge}end` },
        binaryData: { blob: 'AAEC/w==' },
      }),
      1: versionDto(1, {
        data: { notes: long('line 15'), dump: 'start\nend' },
        binaryData: { blob: 'AAEC/g==' },
      }),
    };
    const user = userEvent.setup();
    await render();
    await screen.findByRole('table', { name: 'Versions' });
    await user.selectOptions(pickers().getByLabelText('From'), 'Version 1');
    await user.selectOptions(pickers().getByLabelText('To'), 'Version 2');
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', {
      name: 'Changes from version 1 to version 2',
    });

    // Binary values get no line diff, and the table says so.
    expect(
      within(rowOf(diff, 'blob')).getByText('binary: no line diff'),
    ).toBeInTheDocument();
    expect(
      within(diff).queryByRole('button', { name: /line changes of blob/ }),
    ).toBeNull();

    await user.click(
      within(diff).getByRole('button', {
        name: 'Reveal line changes of notes from version 1 to version 2',
      }),
    );
    const lines = within(diff).getByRole('table', {
      name: 'Line changes of notes',
    });
    expect(
      within(lines).getAllByText(/unchanged lines not shown/),
    ).toHaveLength(2);
    expect(
      within(lines).getByText('11 unchanged lines not shown'),
    ).toBeTruthy();
    expect(
      within(lines).getByText('12 unchanged lines not shown'),
    ).toBeTruthy();

    await user.click(
      within(diff).getByRole('button', {
        name: 'Reveal line changes of dump from version 1 to version 2',
      }),
    );
    expect(
      within(diff).getByText(
        /Too different to show line by line \(a side has more than 10,000 lines\)/,
      ),
    ).toBeInTheDocument();
  });

  it('masks a new line diff again when the compared values change', async () => {
    const { state } = serveHistory(server);
    serveConfigFiles(state);
    const user = userEvent.setup();
    await render({
      initial: {
        ...LIVE,
        keys: ['config'],
        binaryKeys: [],
        data: { config: CONFIG_V1.replace('5432', '7000') },
        binaryData: {},
      },
    });
    await screen.findByRole('table', { name: 'Versions' });
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    let diff = await screen.findByRole('table', {
      name: 'Changes from version 2 to live',
    });
    await user.click(
      within(diff).getByRole('button', {
        name: 'Reveal line changes of config from version 2 to live',
      }),
    );
    expect(document.body.textContent).toContain('port=7000');

    await user.selectOptions(pickers().getByLabelText('From'), 'Version 1');
    await user.click(pickers().getByRole('button', { name: 'Compare' }));
    diff = await screen.findByRole('table', {
      name: 'Changes from version 1 to live',
    });
    expect(document.body.textContent).not.toContain('port=7000');
    expect(
      within(diff).getByRole('button', {
        name: 'Reveal line changes of config from version 1 to live',
      }),
    ).toBeInTheDocument();
  });
});

describe('HistoryTab: retention', () => {
  registerMswTestHooks(server);

  it('says how many more versions fit under the limit', async () => {
    serveHistory(server);
    await render();
    expect(
      await screen.findByText(
        'Keeps 20 versions; 18 more fit before a change of values removes the oldest.',
      ),
    ).toBeInTheDocument();
  });

  it('names the version that the next change removes at the limit', async () => {
    const { state } = serveHistory(server);
    state.config = () => HttpResponse.json(kryptonConfig({ historyLimit: 2 }));
    await render();
    expect(
      await screen.findByText(
        'Keeps 2 versions; the next change of values (an edit or a restore) removes version 1.',
      ),
    ).toBeInTheDocument();
  });

  it('names every version removed when more than the limit are kept', async () => {
    const { state } = serveHistory(server);
    state.config = () => HttpResponse.json(kryptonConfig({ historyLimit: 1 }));
    await render();
    expect(
      await screen.findByText(
        'Keeps 1 version; the next change of values (an edit or a restore) removes versions 1 and 2.',
      ),
    ).toBeInTheDocument();
  });

  it('says the limit on an empty history too', async () => {
    const { state } = serveHistory(server);
    state.list = () => HttpResponse.json({ items: [] });
    await render();
    expect(
      await screen.findByText(
        'Keeps 20 versions; 20 more fit before a change of values removes the oldest.',
      ),
    ).toBeInTheDocument();
  });

  it('says nothing about retention when the limit is invalid or unknown', async () => {
    const { state } = serveHistory(server);
    let answered = false;
    state.config = () => {
      answered = true;
      return HttpResponse.json(
        {
          ...kryptonConfig({ historyLimit: null }),
          error: messages.unavailable,
        },
        { status: 503 },
      );
    };
    await render();
    await screen.findByRole('table', { name: 'Versions' });
    await waitFor(() => expect(answered).toBe(true));
    // Let the answer reach the component before checking that nothing was said.
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(screen.queryByText(/^Keeps/)).toBeNull();
  });
});
