import { OldKeyBlockCode, StorageRewriteFailureCode } from '../dto';
import { messages } from '../errors';

/**
 * Fixed guidance per failure of the storage rewrite; never upstream text.
 *
 * @public
 */
export const STORAGE_REWRITE_MESSAGES: Record<
  StorageRewriteFailureCode,
  string
> = {
  unauthenticated:
    "Kubernetes did not accept Krypton's credentials. An operator must check Krypton's cluster configuration.",
  forbidden:
    "Krypton's identity may not list or patch the Secrets here. An operator must grant it list and patch on Secrets (deploy/operator.yaml).",
  invalid_request:
    'Kubernetes refused the unchanged write of this Secret as invalid, so it may still be stored with the old key.',
  rate_limited: messages.rateLimited,
  unavailable:
    'Kubernetes was unavailable, so this was not rewritten. Run the rewrite again later.',
  unconfirmed:
    'No usable answer arrived, so it is not known whether this Secret was stored again. Run the rewrite again.',
  incomplete_list:
    'The Secrets of this namespace could not be listed to the end (a page that broke the list contract, over 32 MiB, or a continuation that kept expiring), so some may still be stored with the old key.',
  malformed:
    'The listed Secret has no name, UID or resourceVersion, so it was not written. Run the rewrite again.',
  deadline:
    'The run reached its time limit (krypton.storageRewrite.timeLimitMinutes) before this namespace was finished. Run it again: objects already rewritten answer as current at once.',
};

/**
 * Fixed reasons of a `blocked` verdict on retiring the old key.
 *
 * @public
 */
export const OLD_KEY_MESSAGES: Record<OldKeyBlockCode, string> = {
  dry_run:
    'A dry run writes nothing, so it cannot confirm that any object is stored with the current key.',
  failed:
    'Objects could not be rewritten (see failed): they may still be stored with the old key.',
  namespace_failed:
    'Namespaces could not be read to the end (see namespaceFailures): objects there may still be stored with the old key.',
  rewritten_on_recheck:
    'A second pass still stored objects again: an API server may not have loaded the new encryption configuration. Check every API server, then run the rewrite again.',
  changed_during_recheck:
    'Objects were changed by another writer during the second pass, so they were not confirmed current. Run the rewrite again.',
  deadline:
    'The run reached its time limit before it covered its scope. Run it again.',
  cancelled:
    'The run was cancelled before it covered its scope. Run it again: objects already rewritten answer as current at once.',
};

/**
 * Said with every verdict: Krypton's rewrite covers only the objects it labels.
 *
 * @public
 */
export const UNMANAGED_SECRETS_NOTE =
  'This verdict covers only the Secrets that Krypton labels, in the namespaces of this run. Every other Secret needs the upstream StorageVersionMigration of secrets (storagemigration.k8s.io) or an unchanged write with kubectl (kubectl get secrets --all-namespaces -o json | kubectl replace -f -) before the old key is removed.';

/**
 * Fixed texts of the storage rewrite runs' API.
 *
 * @public
 */
export const STORAGE_REWRITE_RUN_MESSAGES = {
  running:
    'A storage rewrite of an overlapping scope is already running on this cluster (a run of every namespace overlaps every other). Wait for it to end, or cancel it.',
  notFound: 'No such storage rewrite run.',
  badId:
    'A storage rewrite run id is a UUID such as 6f1c2b1e-6d59-4a53-9d39-2f0c2f2d9a10.',
  ended:
    'This storage rewrite run has already ended, so it cannot be cancelled.',
  cancelForbidden:
    'Only the operator who started a storage rewrite of every namespace, or a Krypton admin (krypton.admins), may cancel it.',
  interrupted:
    'The backend replica that ran this storage rewrite stopped before the run ended (it shut down, or sent no heartbeat for 60 seconds). Run it again: objects already rewritten answer as current at once.',
  unexpected:
    'The storage rewrite stopped on an unexpected error. Run it again: objects already rewritten answer as current at once.',
} as const;
