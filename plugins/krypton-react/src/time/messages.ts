import { englishT, MessageKeyOf } from '../texts';

/**
 * The words around a time, in English: the exact time in the user's time zone with the same
 * moment in UTC after it. The dates, clock times and zone names inside come from the browser's
 * Intl in the user's locale; only how they are put together is a message. The Backstage plugin
 * puts them in its translation ref under `time`; a host without translations renders them with
 * englishTimeT.
 *
 * @public
 */
export const timeMessages = {
  exact: '{{local}} ({{utc}})',
} as const;

/**
 * The words of times, under the area they have in Krypton's translation ref.
 *
 * @public
 */
export const timeViewMessages = {
  time: timeMessages,
} as const;

/**
 * A message key of the words of times (`time.exact`).
 *
 * @public
 */
export type TimeTextKey = MessageKeyOf<typeof timeViewMessages>;

/**
 * How a host turns a key of the words of times into words: Backstage's translation `t` is one.
 *
 * @public
 */
export type TimeT = (
  key: TimeTextKey,
  params?: { [name: string]: string },
) => string;

/**
 * The English words of times, for a host without translations.
 *
 * @public
 */
export const englishTimeT: TimeT = englishT<
  TimeTextKey,
  { [name: string]: string }
>(timeViewMessages);
