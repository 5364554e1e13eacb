import type { TimeT } from './messages';

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * "3 hours ago" in the given locale (the browser's by default). The largest whole unit wins, so
 * 90 minutes reads "1 hour ago", as GitHub and the Kubernetes UIs round.
 *
 * @public
 */
export function formatRelativeTime(
  then: Date,
  now: Date,
  locale?: string,
): string {
  const seconds = Math.round((then.getTime() - now.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return format.format(Math.trunc(seconds / size), unit);
    }
  }
  return format.format(0, 'second');
}

/**
 * How formatExactTime reads a moment: the locale and the time zone of the user, by default the
 * browser's; tests set both so that they do not depend on the machine.
 *
 * @public
 */
export interface TimeFormatOptions {
  locale?: string;
  /** An IANA time zone ("Europe/Berlin"). */
  timeZone?: string;
}

/**
 * The exact moment, in the user's time zone (named) and in UTC: "Dec 1, 2026, 10:00:00 AM GMT+1
 * (9:00:00 AM UTC)". Kubernetes objects, logs and the audit log carry UTC, so a user can match
 * them without converting; the UTC date is left out where it is the local one, and for a user
 * whose clock shows UTC the moment is given once.
 *
 * @public
 */
export function formatExactTime(
  then: Date,
  t: TimeT,
  options: TimeFormatOptions = {},
): string {
  const { locale, timeZone } = options;
  const format = (zone: string | undefined, withDate: boolean) =>
    new Intl.DateTimeFormat(locale, {
      ...(withDate ? { dateStyle: 'medium' } : {}),
      // `long` names the zone (timeZoneName 'short'), which dateStyle does not let one ask for.
      timeStyle: 'long',
      timeZone: zone,
    }).format(then);
  const day = (zone: string | undefined) =>
    new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeZone: zone,
    }).format(then);

  const local = format(timeZone, true);
  const utc = format('UTC', true);
  if (local === utc) return local;
  return t('time.exact', {
    local,
    utc: day(timeZone) === day('UTC') ? format('UTC', false) : utc,
  });
}

/**
 * A timestamp as a host shows it: relative, with the exact time for its tooltip.
 *
 * @public
 */
export interface TimeDescription {
  /** "3 hours ago". */
  relative: string;
  /** The exact time in the user's time zone and in UTC (formatExactTime). */
  exact: string;
}

/**
 * An RFC 3339 timestamp, as Kubernetes and Krypton write them, in words; undefined for a value
 * that is not a date, which a host shows as written: it may come from an annotation that anyone
 * with write access can edit.
 *
 * @public
 */
export function describeTime(
  value: string,
  now: Date,
  t: TimeT,
  options: TimeFormatOptions = {},
): TimeDescription | undefined {
  const then = new Date(value);
  if (Number.isNaN(then.getTime())) return undefined;
  return {
    relative: formatRelativeTime(then, now, options.locale),
    exact: formatExactTime(then, t, options),
  };
}
