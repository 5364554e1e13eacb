import { inPool } from './pool';

/** Lets settled calls' continuations run, so that the pool starts its next call. */
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('inPool', () => {
  it('has at most `limit` calls in flight and keeps the results in order', async () => {
    const answers: Array<() => void> = [];
    let open = 0;
    let mostOpen = 0;
    const done = inPool([1, 2, 3, 4, 5, 6, 7], 3, item => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      return new Promise<number>(resolve =>
        answers.push(() => {
          open--;
          resolve(item * 10);
        }),
      );
    });
    await settle();
    expect(open).toBe(3);
    // Newest first, so that the order comes from the pool, not from the answers.
    while (answers.length > 0) {
      answers.pop()!();
      await settle();
    }
    expect(await done).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(mostOpen).toBe(3);
  });

  it('answers nothing for no items without calling', async () => {
    const run = jest.fn(async () => 1);
    expect(await inPool([], 4, run)).toEqual([]);
    expect(run).not.toHaveBeenCalled();
  });
});
