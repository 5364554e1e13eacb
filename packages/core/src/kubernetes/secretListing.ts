import { KryptonKeys, MANAGED_BY_VALUE } from '../annotations';
import { SecretListItem } from '../dto';
import { KryptonError, messages } from '../errors';
import { SERVICE_ACCOUNT_TOKEN_TYPE } from '../secretTraits';
import { fromKubeError } from './errors';
import {
  INVENTORY_BUDGET,
  IncompleteListError,
  InventoryBudget,
  readInventory,
} from './inventory';
import {
  SecretViewContext,
  isKryptonStorageSecret,
  secretMetadataView,
} from './secretViews';
import {
  KubeApiError,
  KubeGateway,
  NativeSecret,
  Page,
  PageRequest,
  SECRETS,
  TableRow,
} from './types';

/** The API server's columns of a Secret Table that a list reads: the type and the key count. */
const SECRET_COLUMNS = ['Type', 'Data'] as const;

/**
 * The budget of a Secret list. Rows of the Table carry metadata only, so pages can be as large as
 * kubectl's (500) within the same object, byte and page limits as every other list.
 */
const SECRET_LIST_BUDGET: InventoryBudget = {
  ...INVENTORY_BUDGET,
  pageSize: 500,
};

/**
 * A Secret of a Table row: its metadata and the type that the Type cell names, never data. A cell
 * of the wrong kind makes the page unusable, like any other malformed answer.
 */
interface ListedSecret {
  secret: NativeSecret;
  keyCount: number;
}

function listedSecret(row: TableRow): ListedSecret {
  const { Type: type, Data: keyCount } = row.cells;
  if (
    typeof type !== 'string' ||
    typeof keyCount !== 'number' ||
    !Number.isSafeInteger(keyCount) ||
    keyCount < 0
  ) {
    throw new KubeApiError(0, 'MalformedResponse');
  }
  // The Type column prints an empty type as is; the API server defaults it to Opaque on write.
  return {
    secret: { metadata: row.object.metadata, type: type || 'Opaque' },
    keyCount,
  };
}

/**
 * What a Secret list asks for beyond the deployment's settings.
 *
 * @public
 */
export interface ListOptions {
  /** A validated Kubernetes label selector that narrows the list. */
  labelSelector?: string;
  /** Unmanaged Secrets only, to pick one to adopt. */
  adoptable?: boolean;
  /** Managed Secrets only, whatever the deployment's managedOnly setting. */
  managed?: boolean;
}

/**
 * The label selector of a Secret list: never history or proposals; only managed Secrets if so set, or only
 * unmanaged ones for the adopt picker; narrowed by the caller's own selector.
 *
 * @public
 */
export function secretListSelector(
  keys: KryptonKeys,
  managedOnly: boolean,
  options: ListOptions = {},
): string {
  const terms = [`${keys.kind}!=history`, `${keys.kind}!=proposal`];
  if (options.adoptable) terms.unshift(`!${keys.managedBy}`);
  else if (managedOnly || options.managed)
    terms.unshift(`${keys.managedBy}=${MANAGED_BY_VALUE}`);
  if (options.labelSelector) terms.push(options.labelSelector);
  return terms.join(',');
}

/**
 * Every served Secret of a namespace that `visible` admits, sorted by name. The list is read as
 * the API server's Table of Secrets with each row's metadata: no value is ever read, and the
 * Secret handed to `visible` has metadata and type only. A namespace over the inventory budget,
 * or a table that does not have the expected columns and objects, is refused, never listed in
 * part.
 *
 * @public
 */
export async function listSecretItems(
  gateway: KubeGateway,
  namespace: string,
  list: {
    context: SecretViewContext;
    /** secretListSelector's selector. */
    labelSelector: string;
    adoptable?: boolean;
    visible: (secret: NativeSecret) => boolean;
  },
): Promise<SecretListItem[]> {
  const out: SecretListItem[] = [];
  const fetchPage = async (
    request: PageRequest,
  ): Promise<Page<ListedSecret>> => {
    const page = await gateway.listTable(
      SECRETS,
      namespace,
      request,
      SECRET_COLUMNS,
    );
    return { ...page, items: page.items.map(listedSecret) };
  };
  try {
    for await (const page of readInventory(fetchPage, {
      labelSelector: list.labelSelector,
      budget: SECRET_LIST_BUDGET,
    })) {
      for (const { secret, keyCount } of page) {
        if (
          isKryptonStorageSecret(secret, list.context.keys) ||
          !list.visible(secret)
        )
          continue;
        // Service-account tokens can never be adopted, so the picker does not offer them.
        if (
          list.adoptable &&
          (secret.type ?? 'Opaque') === SERVICE_ACCOUNT_TOKEN_TYPE
        )
          continue;
        out.push({
          ...secretMetadataView(secret, list.context, 'summary'),
          keyCount,
        });
      }
    }
  } catch (err) {
    throw listError(err);
  }
  return out.sort((x, y) => x.name.localeCompare(y.name));
}

function listError(err: unknown): KryptonError {
  if (err instanceof IncompleteListError) {
    return err.cause === 'budget'
      ? new KryptonError('unavailable', messages.listTooLarge)
      : new KryptonError('unavailable', messages.unavailable);
  }
  return fromKubeError(err);
}

/**
 * The UID of every live Secret of a namespace (or of the one `name`, which the API server
 * selects), by name, as this gateway may list them: metadata only, never history, under the same
 * budget as a Secret list. What tells a kept history whose Secret is gone from one whose Secret
 * lives; being a list, it also proves the right to list the namespace's Secrets.
 *
 * @public
 */
export async function listLiveUids(
  gateway: KubeGateway,
  namespace: string,
  keys: KryptonKeys,
  name?: string,
): Promise<Map<string, string>> {
  const uids = new Map<string, string>();
  try {
    for await (const page of readInventory(
      request => gateway.listMetadata(SECRETS, namespace, request),
      {
        labelSelector: secretListSelector(keys, false),
        fieldSelector: name === undefined ? undefined : `metadata.name=${name}`,
        budget: SECRET_LIST_BUDGET,
      },
    )) {
      for (const secret of page) {
        const { name: listed, uid } = secret.metadata;
        if (listed && uid && !isKryptonStorageSecret(secret, keys))
          uids.set(listed, uid);
      }
    }
  } catch (err) {
    throw listError(err);
  }
  return uids;
}
