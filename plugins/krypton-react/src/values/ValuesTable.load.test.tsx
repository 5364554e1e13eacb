import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { renderValues } from '../__testUtils__/renderValues';
import { keyEntries } from './entries';
import { ValuesTable } from './ValuesTable';

const STORED: Record<string, string> = {
  password: 'hunter2-very-secret',
  note: '# Runbook\n\nRotate it.',
};

/**
 * A host as the portal is: the table's rows from the Secret's facts, each value fetched by `load`
 * when the user asks for it and kept in the host's state.
 */
function OnDemand(props: {
  fetch: (key: string) => Promise<string | undefined>;
}) {
  const [data, setData] = useState<Record<string, string>>({});
  const load = useCallback(
    async (key: string) => {
      const value = await props.fetch(key);
      if (value !== undefined) setData(d => ({ ...d, [key]: value }));
      return value;
    },
    [props],
  );
  const entries = keyEntries(
    {
      keys: ['password', 'note', 'blob'],
      binaryKeys: ['blob'],
      sizes: { password: 19, note: 21, blob: 4 },
    },
    { data, binaryData: {} },
  );
  return <ValuesTable entries={entries} label="Values" load={load} />;
}

const row = (key: string) =>
  screen.getByRole('rowheader', { name: key }).closest('tr')!;

describe('ValuesTable with values fetched on demand', () => {
  it('shows kinds and sizes from the facts, and fetches a value only for the row asked', async () => {
    const asked: string[] = [];
    const user = userEvent.setup();
    await renderValues(
      <OnDemand
        fetch={async key => {
          asked.push(key);
          return STORED[key];
        }}
      />,
    );
    expect(within(row('password')).getByText('19 bytes')).toBeInTheDocument();
    expect(within(row('blob')).getByText('binary')).toBeInTheDocument();
    expect(within(row('blob')).getByText('4 bytes')).toBeInTheDocument();
    expect(asked).toEqual([]);
    expect(document.body.textContent).not.toContain(STORED.password);

    await user.click(
      within(row('password')).getByRole('button', { name: 'Reveal' }),
    );
    expect(
      await within(row('password')).findByText(STORED.password),
    ).toBeInTheDocument();
    expect(asked).toEqual(['password']);
    expect(within(row('note')).getByText('Hidden')).toBeInTheDocument();

    // Hide and Reveal again: the value is held, not fetched again.
    await user.click(
      within(row('password')).getByRole('button', { name: 'Hide' }),
    );
    expect(document.body.textContent).not.toContain(STORED.password);
    await user.click(
      within(row('password')).getByRole('button', { name: 'Reveal' }),
    );
    expect(
      within(row('password')).getByText(STORED.password),
    ).toBeInTheDocument();
    expect(asked).toEqual(['password']);

    // Raw is a reveal too, and fetches its own row's value.
    await user.click(within(row('note')).getByRole('button', { name: 'Raw' }));
    expect(
      await screen.findByRole('group', { name: 'Raw value of note' }),
    ).toHaveTextContent('Rotate it.');
    expect(asked).toEqual(['password', 'note']);
  });

  it('copies a value it fetches for the copy', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText },
    });
    const asked: string[] = [];
    await renderValues(
      <OnDemand
        fetch={async key => {
          asked.push(key);
          return STORED[key];
        }}
      />,
    );
    await user.click(
      within(row('password')).getByRole('button', { name: 'Copy' }),
    );
    expect(
      await within(row('password')).findByText('Copied'),
    ).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(STORED.password);
    expect(asked).toEqual(['password']);
    // Copied, not shown.
    expect(within(row('password')).getByText('Hidden')).toBeInTheDocument();
  });

  it('stays masked and says so when the value cannot be fetched', async () => {
    const user = userEvent.setup();
    await renderValues(<OnDemand fetch={async () => undefined} />);
    await user.click(
      within(row('password')).getByRole('button', { name: 'Reveal' }),
    );
    expect(
      await within(row('password')).findByText('Could not load the value'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(row('password')).getByRole('button', { name: 'Reveal' }),
      ).toBeInTheDocument(),
    );
    expect(within(row('password')).getByText('Hidden')).toBeInTheDocument();
  });
});
