import {
  INVENTORY_MAX_BYTES,
  INVENTORY_MAX_OBJECTS,
  INVENTORY_MAX_PAGES,
  INVENTORY_PAGE_SIZE,
} from '../limits';
import { KubeApiError, Page, PageRequest } from './types';

/**
 * How much one inventory (all pages of one list) may read.
 *
 * @public
 */
export interface InventoryBudget {
  pageSize: number;
  maxPages: number;
  maxObjects: number;
  /** Bytes of JSON bodies, summed over the pages. */
  maxBytes: number;
}

/**
 * The budget of every list Krypton makes: the restart spec's collection budgets.
 *
 * @public
 */
export const INVENTORY_BUDGET: InventoryBudget = {
  pageSize: INVENTORY_PAGE_SIZE,
  maxPages: INVENTORY_MAX_PAGES,
  maxObjects: INVENTORY_MAX_OBJECTS,
  maxBytes: INVENTORY_MAX_BYTES,
};

/**
 * Why an inventory is incomplete: over a budget, a continuation that cannot be followed
 * (repeated, expired or refused), or a page that breaks the list contract.
 *
 * @public
 */
export type IncompleteCause = 'budget' | 'continuation' | 'malformed';

/**
 * A list that could not be read to its end. Nothing from its earlier pages may be acted on as if
 * it were the whole inventory.
 *
 * @public
 */
export class IncompleteListError extends Error {
  constructor(readonly cause: IncompleteCause, readonly status?: number) {
    super(`Incomplete list (${cause})`);
    this.name = 'IncompleteListError';
  }
}

/**
 * Reads every page of a list, following continuation tokens to the end, within the budget. Pages
 * are handed out one at a time, so a caller can reduce each page (to summaries, to matches) and
 * never hold every object at once. Any failure to complete the list throws IncompleteListError,
 * or the KubeApiError of a refused page; callers must then treat the whole inventory as unknown.
 *
 * @public
 */
export async function* readInventory<T>(
  fetchPage: (request: PageRequest) => Promise<Page<T>>,
  options: {
    labelSelector?: string;
    fieldSelector?: string;
    budget?: InventoryBudget;
  } = {},
): AsyncGenerator<T[], void, undefined> {
  const budget = options.budget ?? INVENTORY_BUDGET;
  const seen = new Set<string>();
  let continueToken: string | undefined;
  let pages = 0;
  let objects = 0;
  let bytes = 0;
  do {
    if (pages >= budget.maxPages) throw new IncompleteListError('budget');
    let page: Page<T>;
    try {
      page = await fetchPage({
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: budget.pageSize,
        continueToken,
        maxBytes: budget.maxBytes - bytes,
      });
    } catch (err) {
      if (err instanceof KubeApiError && err.reason === 'ResponseTooLarge')
        throw new IncompleteListError('budget');
      if (err instanceof KubeApiError && err.reason === 'MalformedResponse')
        throw new IncompleteListError('malformed');
      // 410 Gone: the continuation expired. A refused continuation is as bad as a lost one.
      if (
        continueToken !== undefined &&
        err instanceof KubeApiError &&
        (err.status === 410 || err.status === 400)
      ) {
        throw new IncompleteListError('continuation', err.status);
      }
      throw err;
    }
    pages++;
    objects += page.items.length;
    bytes += page.bytes;
    if (page.items.length > budget.pageSize)
      throw new IncompleteListError('malformed');
    if (objects > budget.maxObjects || bytes > budget.maxBytes)
      throw new IncompleteListError('budget');
    continueToken = page.continueToken;
    if (continueToken !== undefined) {
      if (seen.has(continueToken))
        throw new IncompleteListError('continuation');
      seen.add(continueToken);
    }
    yield page.items;
  } while (continueToken !== undefined);
}
