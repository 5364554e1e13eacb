import { StorageRewriteRunStatus } from '@krypton/core';
import { KryptonT } from '../../translation';

/** A run's scope in a sentence: "namespace payments", or all namespaces for a cluster-wide run. */
export function scopePhrase(t: KryptonT, scope: string): string {
  return scope === '*'
    ? t('operator.scope.all')
    : t('operator.scope.namespace', { namespace: scope });
}

/** A run's scope in a table cell: the namespace as named, or all namespaces. */
export function scopeCell(t: KryptonT, scope: string): string {
  return scope === '*' ? t('operator.scope.all') : scope;
}

/** A run's state in a word; a running run whose cancel was asked for is "cancelling". */
export function stateWord(
  t: KryptonT,
  run: Pick<StorageRewriteRunStatus, 'state' | 'cancelRequested'>,
): string {
  if (run.state === 'running' && run.cancelRequested) {
    return t('operator.runs.state.cancelling');
  }
  return t(`operator.runs.state.${run.state}`);
}
