export { describeTime, formatExactTime, formatRelativeTime } from './format';
export type { TimeDescription, TimeFormatOptions } from './format';
export { englishTimeT, timeMessages, timeViewMessages } from './messages';
export type { TimeT, TimeTextKey } from './messages';
