import { IncompleteListError, readInventory } from './inventory';
import { KubeApiError, Page, PageRequest } from './types';

const budget = { pageSize: 2, maxPages: 4, maxObjects: 6, maxBytes: 1000 };

async function drain<T>(pages: AsyncGenerator<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(...page);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** A list whose pages are scripted: each call answers the next entry. */
function scripted(pages: Array<Page<number> | Error>) {
  const requests: PageRequest[] = [];
  let i = 0;
  const fetchPage = async (request: PageRequest) => {
    requests.push(request);
    const next = pages[i++];
    if (next === undefined) throw new Error('no more pages scripted');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetchPage, requests };
}

describe('readInventory', () => {
  it('follows continuation tokens to the end, with the selector and the remaining byte budget', async () => {
    const { fetchPage, requests } = scripted([
      { items: [1, 2], continueToken: 'a', bytes: 100 },
      { items: [3, 4], continueToken: 'b', bytes: 100 },
      { items: [5], bytes: 50 },
    ]);
    const items = await drain(
      readInventory(fetchPage, { labelSelector: 'x=y', budget }),
    );
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(requests).toEqual([
      {
        labelSelector: 'x=y',
        limit: 2,
        continueToken: undefined,
        maxBytes: 1000,
      },
      { labelSelector: 'x=y', limit: 2, continueToken: 'a', maxBytes: 900 },
      { labelSelector: 'x=y', limit: 2, continueToken: 'b', maxBytes: 800 },
    ]);
  });

  it('refuses a repeated continuation token', async () => {
    const { fetchPage } = scripted([
      { items: [1, 2], continueToken: 'a', bytes: 10 },
      { items: [3, 4], continueToken: 'a', bytes: 10 },
    ]);
    const err = await failure(drain(readInventory(fetchPage, { budget })));
    expect(err).toBeInstanceOf(IncompleteListError);
    expect((err as IncompleteListError).cause).toBe('continuation');
  });

  it('stops an endless list of fresh tokens at the page budget', async () => {
    let n = 0;
    const endless = async () => ({
      items: [],
      continueToken: `t${n++}`,
      bytes: 2,
    });
    const err = await failure(drain(readInventory(endless, { budget })));
    expect((err as IncompleteListError).cause).toBe('budget');
    expect(n).toBe(budget.maxPages);
  });

  it('counts objects and bytes across pages', async () => {
    const tooMany = scripted([
      { items: [1, 2], continueToken: 'a', bytes: 1 },
      { items: [3, 4], continueToken: 'b', bytes: 1 },
      { items: [5, 6], continueToken: 'c', bytes: 1 },
      { items: [7], bytes: 1 },
    ]);
    expect(
      (
        (await failure(
          drain(readInventory(tooMany.fetchPage, { budget })),
        )) as IncompleteListError
      ).cause,
    ).toBe('budget');
    const exactly = scripted([
      { items: [1, 2], continueToken: 'a', bytes: 1 },
      { items: [3, 4], continueToken: 'b', bytes: 1 },
      { items: [5, 6], bytes: 998 },
    ]);
    expect(
      await drain(readInventory(exactly.fetchPage, { budget })),
    ).toHaveLength(6);
    const tooLarge = scripted([new KubeApiError(0, 'ResponseTooLarge')]);
    expect(
      (
        (await failure(
          drain(readInventory(tooLarge.fetchPage, { budget })),
        )) as IncompleteListError
      ).cause,
    ).toBe('budget');
  });

  it('treats an expired or refused continuation as incomplete, and other failures as themselves', async () => {
    const expired = scripted([
      { items: [1, 2], continueToken: 'a', bytes: 1 },
      new KubeApiError(410, 'Expired'),
    ]);
    const err = await failure(
      drain(readInventory(expired.fetchPage, { budget })),
    );
    expect(err).toMatchObject({ cause: 'continuation', status: 410 });
    const forbidden = scripted([new KubeApiError(403, 'Forbidden')]);
    expect(
      await failure(drain(readInventory(forbidden.fetchPage, { budget }))),
    ).toMatchObject({ status: 403, name: 'KubeApiError' });
  });

  it('refuses a page with more objects than asked for', async () => {
    const { fetchPage } = scripted([{ items: [1, 2, 3], bytes: 3 }]);
    expect(
      (
        (await failure(
          drain(readInventory(fetchPage, { budget })),
        )) as IncompleteListError
      ).cause,
    ).toBe('malformed');
  });
});
