import { describeTime, formatExactTime, formatRelativeTime } from './format';
import { englishTimeT } from './messages';

const now = new Date('2026-12-01T12:00:00Z');
// ICU puts a narrow no-break space before "AM" in newer versions: compare on plain spaces.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('formatRelativeTime', () => {
  it('rounds down to the largest whole unit, in the given locale', () => {
    const at = (iso: string, locale = 'en') =>
      formatRelativeTime(new Date(iso), now, locale);
    expect(at('2026-12-01T10:30:00Z')).toBe('1 hour ago');
    expect(at('2026-11-28T12:00:00Z')).toBe('3 days ago');
    expect(at('2026-12-01T11:59:58Z')).toBe('2 seconds ago');
    expect(at('2026-11-17T12:00:00Z')).toBe('2 weeks ago');
    expect(at('2025-11-01T12:00:00Z')).toBe('last year');
    expect(at('2026-12-01T12:05:00Z')).toBe('in 5 minutes');
    expect(formatRelativeTime(now, now, 'en')).toBe('now');
    expect(at('2026-11-30T12:00:00Z', 'de')).toBe('gestern');
  });
});

describe('formatExactTime', () => {
  const exact = (iso: string, timeZone: string) =>
    plain(
      formatExactTime(new Date(iso), englishTimeT, {
        locale: 'en-US',
        timeZone,
      }),
    );

  it('gives the time in the user’s zone, named, and the same moment in UTC', () => {
    expect(exact('2026-12-01T09:00:00Z', 'Europe/Berlin')).toBe(
      'Dec 1, 2026, 10:00:00 AM GMT+1 (9:00:00 AM UTC)',
    );
  });

  it('gives the UTC date too where it is another day than the local one', () => {
    expect(exact('2026-12-01T02:00:00Z', 'America/New_York')).toBe(
      'Nov 30, 2026, 9:00:00 PM EST (Dec 1, 2026, 2:00:00 AM UTC)',
    );
  });

  it('gives the moment once to a user whose clock shows UTC', () => {
    expect(exact('2026-12-01T09:00:00Z', 'UTC')).toBe(
      'Dec 1, 2026, 9:00:00 AM UTC',
    );
  });

  it('puts the parts together with the host’s words', () => {
    const text = formatExactTime(
      new Date('2026-12-01T09:00:00Z'),
      (key, params) => `${key}: ${params?.local} / ${params?.utc}`,
      { locale: 'de-DE', timeZone: 'Europe/Berlin' },
    );
    expect(text).toBe('time.exact: 01.12.2026, 10:00:00 MEZ / 09:00:00 UTC');
  });
});

describe('describeTime', () => {
  it('describes a timestamp relatively and exactly', () => {
    const described = describeTime('2026-12-01T09:00:00Z', now, englishTimeT, {
      locale: 'en-US',
      timeZone: 'Asia/Tokyo',
    });
    expect(described?.relative).toBe('3 hours ago');
    expect(plain(described?.exact ?? '')).toBe(
      'Dec 1, 2026, 6:00:00 PM GMT+9 (9:00:00 AM UTC)',
    );
  });

  it('leaves a value that is not a date to be shown as written', () => {
    expect(describeTime('yesterday-ish', now, englishTimeT)).toBeUndefined();
    expect(describeTime('', now, englishTimeT)).toBeUndefined();
  });
});
