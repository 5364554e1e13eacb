import { englishTimeT, formatExactTime } from '@krypton/plugin-krypton-react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInHeadlamp } from '../__testUtils__/renderInHeadlamp';
import { RelativeTime } from './RelativeTime';

const now = new Date('2026-12-01T12:00:00Z');
const value = '2026-12-01T09:00:00Z';
// The machine's zone decides the local part: the component is checked against the shared rule,
// whose own tests fix the zone.
const exact = formatExactTime(new Date(value), englishTimeT);

// jsdom's :focus-visible does not follow the keyboard of user-event. Where the selector is
// unknown, MUI falls back to its own rule (a key was pressed before the focus), as browsers
// that know it decide for a tabbed-to element.
beforeEach(() => {
  const matches = Element.prototype.matches;
  vi.spyOn(Element.prototype, 'matches').mockImplementation(
    function focusVisibleUnknown(this: Element, selector: string) {
      if (selector === ':focus-visible') throw new SyntaxError(selector);
      return matches.call(this, selector);
    },
  );
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The relative text as the name, and the exact time as the description, of the element. */
const timeElement = (description: string) =>
  screen.getByRole('time', { name: '3 hours ago', description });

describe('RelativeTime', () => {
  it('shows the relative time, with the machine value in dateTime', () => {
    renderInHeadlamp(<RelativeTime value={value} now={now} />);
    const time = screen.getByText('3 hours ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(value);
    expect(exact).toMatch(/UTC/);
    // Before the tooltip opens, a screen reader has the exact time too.
    expect(timeElement(exact)).toBe(time);
  });

  it('shows the exact time in a tooltip on hover', async () => {
    renderInHeadlamp(<RelativeTime value={value} now={now} />);
    await userEvent.hover(screen.getByText('3 hours ago'));
    expect((await screen.findByRole('tooltip')).textContent).toBe(exact);
    expect(timeElement(exact)).toBeTruthy();
  });

  it('shows the exact time in a tooltip on keyboard focus', async () => {
    renderInHeadlamp(<RelativeTime value={value} now={now} />);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByText('3 hours ago'));
    expect((await screen.findByRole('tooltip')).textContent).toBe(exact);
    expect(timeElement(exact)).toBeTruthy();
  });

  it('shows a value that is not a date as written', () => {
    renderInHeadlamp(<RelativeTime value="yesterday-ish" now={now} />);
    expect(screen.getByText('yesterday-ish').tagName).toBe('SPAN');
    expect(screen.queryByRole('time')).toBeNull();
  });
});
