import { retentionOutlook } from './retention';

const versions = (...numbers: number[]) =>
  numbers.map(version => ({ version }));

describe('retentionOutlook', () => {
  it('removes the oldest version when the history is at the limit', () => {
    // Newest first, as the list answers.
    expect(retentionOutlook(versions(22, 21, 20, 3), 23, 4)).toEqual({
      limit: 4,
      removes: [3],
      room: 0,
    });
  });

  it('removes nothing, and says how many more fit, under the limit', () => {
    expect(retentionOutlook(versions(2, 1), 3, 20)).toEqual({
      limit: 20,
      removes: [],
      room: 18,
    });
    expect(retentionOutlook([], 1, 20)).toEqual({
      limit: 20,
      removes: [],
      room: 20,
    });
  });

  it('removes every version above the limit at once, oldest first, by app counter', () => {
    // A lowered limit, or earlier cleanup that failed: more than the limit are kept.
    expect(retentionOutlook(versions(10, 9, 2, 7, 5), 11, 3)).toEqual({
      limit: 3,
      removes: [2, 5, 7],
      room: 0,
    });
  });

  it('never counts the reused snapshot of the live revision as removable or added', () => {
    // Version 5 was saved from the live revision before a write that failed: the next change
    // reuses it, so nothing is added and it is not the one removed.
    expect(retentionOutlook(versions(5, 4, 3), 5, 3)).toEqual({
      limit: 3,
      removes: [],
      room: 0,
    });
    expect(retentionOutlook(versions(5, 4, 3), 5, 2)).toEqual({
      limit: 2,
      removes: [3],
      room: 0,
    });
  });

  it('with a limit of 1, the next change replaces the only version', () => {
    expect(retentionOutlook(versions(4), 5, 1)).toEqual({
      limit: 1,
      removes: [4],
      room: 0,
    });
  });

  it('foretells nothing without a readable counter, or with history newer than it', () => {
    expect(retentionOutlook(versions(2, 1), null, 20)).toBeUndefined();
    expect(retentionOutlook(versions(2, 1), undefined, 20)).toBeUndefined();
    expect(retentionOutlook(versions(7, 1), 3, 20)).toBeUndefined();
  });
});
