/**
 * Kubernetes' bound on the decoded values of one Secret (core.MaxSecretSize).
 *
 * @public
 */
export const MAX_SECRET_BYTES = 1024 * 1024;

/**
 * Base64 inflation factor used by the conservative size estimate.
 *
 * @public
 */
export const SIZE_ESTIMATE_INFLATION = 1.4;

/**
 * Values longer than this many UTF-16 code units are shown as escaped raw text, not previewed.
 *
 * @public
 */
export const PREVIEW_LIMIT_CODE_UNITS = 131_072;

/**
 * The default prefix of Krypton's labels and annotations (krypton.annotationPrefix).
 *
 * @public
 */
export const DEFAULT_ANNOTATION_PREFIX = 'krypton.io';

/**
 * How many entries of an entity's <prefix>/secrets annotation are read. Every entry costs a request
 * in the browser of everyone who views the entity, so one catalog entity must not be able to make
 * them send thousands; entries after these are counted, never parsed, so that the entity tab can
 * say how many it did not load. Blank entries (",,", a trailing comma) are not entries.
 *
 * @public
 */
export const MAX_LINKED_SECRET_ENTRIES = 100;

/**
 * Storage names of history snapshots start with this; such names are never served by name.
 *
 * @public
 */
export const SNAPSHOT_NAME_PREFIX = 'krypton-h-';

/**
 * Storage names of change requests' proposal Secrets (the values a request proposes) start with
 * this; like snapshots, they are never served by name.
 *
 * @public
 */
export const PROPOSAL_NAME_PREFIX = 'krypton-p-';

/**
 * Default and bounds of KRYPTON_HISTORY_LIMIT.
 *
 * @public
 */
export const HISTORY_LIMIT_DEFAULT = 20;
/** @public */
export const HISTORY_LIMIT_MIN = 1;
/** @public */
export const HISTORY_LIMIT_MAX = 100;

/**
 * Collection budgets of every list Krypton makes (restart discovery, the Secret list, history
 * inventories): 100-object pages, at most 100 pages, 2,000 objects and 32 MiB of JSON.
 *
 * @public
 */
export const INVENTORY_PAGE_SIZE = 100;
/** @public */
export const INVENTORY_MAX_PAGES = 100;
/** @public */
export const INVENTORY_MAX_OBJECTS = 2000;
/** @public */
export const INVENTORY_MAX_BYTES = 32 * 1024 * 1024;

/**
 * How many namespaces one answer of the platform page's first view looks in (one Secret list
 * each), as many as one collection's pages; and how many lists run at once.
 *
 * @public
 */
export const MANAGED_NAMESPACES_MAX = INVENTORY_MAX_PAGES;
/** @public */
export const MANAGED_NAMESPACES_CONCURRENCY = 4;

/**
 * How many consuming workloads have their pods read at once (each one or two lists).
 *
 * @public
 */
export const CONSUMER_PODS_CONCURRENCY = 4;

/**
 * How far a container's start may be from the moment it read a Secret: the kubelet reports starts
 * to the second, and resolves a container's environment just before it starts it.
 *
 * @public
 */
export const START_SLACK_MS = 1000;

/**
 * How long after a version's snapshot-at a container may still have read the version before it:
 * the write lands after its snapshot, and reaches the kubelet's watch after that.
 *
 * @public
 */
export const CHANGE_PROPAGATION_MS = 3000;

/**
 * By when a mounted Secret volume (without `subPath`) is expected to hold a change: the kubelet's
 * default sync period of a minute, and its cache's propagation.
 *
 * @public
 */
export const VOLUME_SYNC_MS = 90_000;

/**
 * The longest workload condition message an answer carries.
 *
 * @public
 */
export const CONDITION_MESSAGE_MAX = 512;

/**
 * The longest description a Secret may carry, in UTF-16 code units; the API and the forms check it.
 *
 * @public
 */
export const MAX_DESCRIPTION_LENGTH = 2048;

/**
 * The most entity refs one role of a Secret's access rules may list; the API and the forms check it.
 *
 * @public
 */
export const MAX_ACCESS_REFS = 100;
