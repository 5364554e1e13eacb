import { render, screen } from '@testing-library/react';
import { RelativeTime } from './RelativeTime';
import { formatRelativeTime } from './relativeTime';

describe('RelativeTime', () => {
  const now = new Date('2026-12-01T12:00:00Z');

  it('rounds down to the largest whole unit, in the given locale', () => {
    expect(
      formatRelativeTime(new Date('2026-12-01T10:30:00Z'), now, 'en'),
    ).toBe('1 hour ago');
    expect(
      formatRelativeTime(new Date('2026-11-28T12:00:00Z'), now, 'en'),
    ).toBe('3 days ago');
    expect(
      formatRelativeTime(new Date('2026-12-01T11:59:58Z'), now, 'en'),
    ).toBe('2 seconds ago');
    expect(formatRelativeTime(now, now, 'en')).toBe('now');
    expect(
      formatRelativeTime(new Date('2026-11-30T12:00:00Z'), now, 'de'),
    ).toBe('gestern');
  });

  it('shows the relative time with the exact time on hover and the value in dateTime', () => {
    render(<RelativeTime value="2026-12-01T09:00:00Z" now={now} />);
    const time = screen.getByText('3 hours ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('dateTime')).toBe('2026-12-01T09:00:00Z');
    expect(time.getAttribute('title')).toContain('2026');
  });

  it('shows a value that is not a date as written', () => {
    render(<RelativeTime value="yesterday-ish" now={now} />);
    expect(screen.getByText('yesterday-ish').tagName).toBe('SPAN');
  });
});
