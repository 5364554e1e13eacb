import { renderInTestApp } from '@backstage/test-utils';
import { formatExactTime, englishTimeT } from '@krypton/plugin-krypton-react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RelativeTime } from './RelativeTime';

// jsdom's :focus-visible does not follow the keyboard of user-event. Where the selector is
// unknown, MUI falls back to its own rule (a key was pressed before the focus), as browsers
// that know it decide for a tabbed-to element.
beforeEach(() => {
  const matches = Element.prototype.matches;
  jest
    .spyOn(Element.prototype, 'matches')
    .mockImplementation(function focusVisibleUnknown(
      this: Element,
      selector: string,
    ) {
      if (selector === ':focus-visible') throw new SyntaxError(selector);
      return matches.call(this, selector);
    });
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('RelativeTime', () => {
  const now = new Date('2026-12-01T12:00:00Z');
  const value = '2026-12-01T09:00:00Z';
  // The machine's zone decides the local part: the component is checked against the shared rule,
  // whose own tests fix the zone.
  const exact = formatExactTime(new Date(value), englishTimeT);

  it('shows the relative time, with the machine value in dateTime', async () => {
    await renderInTestApp(<RelativeTime value={value} now={now} />);
    const time = screen.getByText('3 hours ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('dateTime', value);
    expect(exact).toMatch(/UTC/);
  });

  it('shows the exact time in a tooltip on hover', async () => {
    await renderInTestApp(<RelativeTime value={value} now={now} />);
    const time = screen.getByText('3 hours ago');
    await userEvent.hover(time);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(exact);
    // The relative text stays the name; the exact time describes it.
    expect(time).toHaveAccessibleName('3 hours ago');
    expect(time).toHaveAccessibleDescription(exact);
  });

  it('shows the exact time in a tooltip on keyboard focus', async () => {
    await renderInTestApp(<RelativeTime value={value} now={now} />);
    await userEvent.tab();
    const time = screen.getByText('3 hours ago');
    expect(time).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(exact);
    expect(time).toHaveAccessibleDescription(exact);
  });

  it('describes the time before the tooltip opens, for a screen reader', async () => {
    await renderInTestApp(<RelativeTime value={value} now={now} />);
    expect(screen.getByText('3 hours ago')).toHaveAccessibleDescription(exact);
  });

  it('shows a value that is not a date as written', async () => {
    await renderInTestApp(<RelativeTime value="yesterday-ish" now={now} />);
    expect(screen.getByText('yesterday-ish').tagName).toBe('SPAN');
    expect(screen.queryByRole('time')).toBeNull();
  });
});
