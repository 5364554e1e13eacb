import {
  KryptonError,
  StorageRewrite,
  StorageRewritePass,
  StorageRewriteRunStatus,
  fromKubeError,
  inPool,
  messages,
} from '@krypton/core';
import { KryptonBackendConfig } from '../config';
import { ClusterRequestContext } from './requestContext';

// What an operator may see of storage rewrite runs: Krypton's identity rewrites, so a run answers
// only for the namespaces whose Secrets the caller may list.

/** Namespaces (and runs) checked at once when /last and the runs are kept to what the caller may list. */
export const VISIBILITY_CHECKS_IN_FLIGHT = 8;

/**
 * The scope of an operator's storage rewrite. Krypton's identity rewrites, so the scope is what
 * the caller could see: the namespaces their own identity may list Secrets in, or in
 * serviceAccount mode (where that identity is Krypton's) the namespaces listed for the mode.
 * Refuses (403) a namespace outside it.
 */
export function rewriteScope(
  config: KryptonBackendConfig,
  ctx: ClusterRequestContext,
  rewrite: StorageRewrite,
) {
  return async (namespace: string): Promise<void> => {
    const visible =
      config.identity === 'serviceAccount'
        ? config.serviceAccountMode.namespaces.has(namespace)
        : await rewrite.mayList(ctx.gateways.user, namespace).catch(err => {
            throw fromKubeError(err);
          });
    if (!visible) throw new KryptonError('forbidden', messages.rewriteScope);
  };
}

/** A rewrite scope's admission of a namespace: resolves, or refuses with 403. */
type RewriteScope = ReturnType<typeof rewriteScope>;

/**
 * Whether the caller may list a namespace's Secrets, asked once per namespace and call; the
 * scope's refusal is a no, any other failure is the caller's.
 */
export function namespaceVisibility(scope: RewriteScope) {
  const known = new Map<string, Promise<boolean>>();
  return (namespace: string): Promise<boolean> => {
    let answer = known.get(namespace);
    if (!answer) {
      answer = admitted(scope, namespace);
      known.set(namespace, answer);
    }
    return answer;
  };
}

/** The scope's admission of a namespace as a yes or no; failures other than a refusal throw. */
export function admitted(
  scope: RewriteScope,
  namespace: string,
): Promise<boolean> {
  return scope(namespace).then(
    () => true,
    err => {
      if (err instanceof KryptonError && err.code === 'forbidden') return false;
      throw err;
    },
  );
}

/** Keeps the names of namespaces the caller may list; counts stay the run's totals. */
function visiblePass<T extends StorageRewritePass>(
  pass: T,
  visible: (namespace: string) => boolean,
): T {
  return {
    ...pass,
    flagged: pass.flagged.filter(f => visible(f.namespace)),
    gone: pass.gone.filter(g => visible(g.namespace)),
    failed: pass.failed.filter(f => visible(f.namespace)),
    // The list of namespaces itself (namespace '') failing names none.
    namespaceFailures: pass.namespaceFailures.filter(
      f => f.namespace === '' || visible(f.namespace),
    ),
  };
}

/**
 * A run as the caller may see it: a one-namespace run when they may list that namespace; a
 * run of every namespace always, with only the names of the namespaces they may list.
 */
export async function visibleRun(
  run: StorageRewriteRunStatus,
  mayList: (namespace: string) => Promise<boolean>,
): Promise<StorageRewriteRunStatus | undefined> {
  if (run.scope !== '*') return (await mayList(run.scope)) ? run : undefined;
  const named = new Set<string>();
  if (run.progress.namespace) named.add(run.progress.namespace);
  const result = run.result;
  if (result) {
    for (const pass of [result, result.recheck]) {
      if (!pass) continue;
      for (const ref of [
        ...pass.flagged,
        ...pass.gone,
        ...pass.failed,
        ...pass.namespaceFailures,
      ])
        named.add(ref.namespace);
    }
    result.namespaces.forEach(ns => named.add(ns));
  }
  named.delete('');
  const names = [...named];
  const answers = await inPool(names, VISIBILITY_CHECKS_IN_FLIGHT, mayList);
  const shown = new Set(names.filter((_, i) => answers[i]));
  const visible = (ns: string) => shown.has(ns);
  const progress = { ...run.progress };
  if (progress.namespace !== undefined && !visible(progress.namespace))
    delete progress.namespace;
  const out: StorageRewriteRunStatus = { ...run, progress };
  if (result) {
    out.result = {
      ...visiblePass(result, visible),
      namespaces: result.namespaces.filter(visible),
    };
    if (result.recheck)
      out.result.recheck = visiblePass(result.recheck, visible);
  }
  return out;
}
