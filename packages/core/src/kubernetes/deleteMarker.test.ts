import { kryptonKeys } from '../annotations';
import {
  HISTORY_CLEANED_MARK_TTL_MS,
  historyCleanedMark,
  markedHistoryCleaned,
} from './deleteMarker';
import { NativeSecret } from './types';

const keys = kryptonKeys('krypton.io');
const NOW = new Date('2026-12-05T12:00:00.000Z');

const marked = (value?: string): NativeSecret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'a',
    namespace: 'n',
    annotations:
      value === undefined ? {} : { 'krypton.io/history-cleaned-at': value },
  },
});

const at = (offsetMs: number) =>
  new Date(NOW.getTime() + offsetMs).toISOString();

describe('historyCleanedMark', () => {
  it('is a merge patch conditional on the checked UID and revision', () => {
    expect(
      historyCleanedMark(keys, { uid: 'u', resourceVersion: '7' }, NOW),
    ).toEqual({
      metadata: {
        uid: 'u',
        resourceVersion: '7',
        annotations: {
          'krypton.io/history-cleaned-at': '2026-12-05T12:00:00.000Z',
        },
      },
    });
  });
});

describe('markedHistoryCleaned', () => {
  it.each([
    ['written now', at(0), true],
    ['written at the edge of its life', at(-HISTORY_CLEANED_MARK_TTL_MS), true],
    ['from a clock a little ahead', at(30_000), true],
    ['older than its life', at(-HISTORY_CLEANED_MARK_TTL_MS - 1), false],
    ['too far ahead', at(HISTORY_CLEANED_MARK_TTL_MS + 1), false],
    ['absent', undefined, false],
    ['not a time', 'yesterday-ish', false],
    ['empty', '', false],
    ['far too long to be a time', `${at(0)}${' '.repeat(100)}`, false],
  ])('%s: %s', (_what, value, expected) => {
    expect(markedHistoryCleaned(marked(value), keys, NOW)).toBe(expected);
  });

  it('reads the mark under the configured prefix only', () => {
    expect(
      markedHistoryCleaned(marked(at(0)), kryptonKeys('example.com'), NOW),
    ).toBe(false);
  });
});
