import { StorageRewriteResult, StorageRewriteRunStatus } from '@krypton/core';
import request from 'supertest';
import { KryptonTestBackend, as } from './testBackend';

/** A storage rewrite started over HTTP and followed to its end. */
export interface RewriteToEnd {
  /** The POST's answer: 202 with the run, or the synchronous 4xx of a refused start. */
  start: request.Response;
  /** The last read of the run (GET at the POST's Location), once it ended; absent when refused. */
  final?: request.Response;
  run?: StorageRewriteRunStatus;
  /** The ended run's result; absent when refused or when the run ended without one. */
  result?: StorageRewriteResult;
}

/** Reads a run until it is no longer running. */
export async function waitForRun(
  backend: Pick<KryptonTestBackend, 'server'>,
  path: string,
  user = 'root',
  timeoutMs = 100_000,
): Promise<request.Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(backend.server)
      .get(path)
      .set('Authorization', as(user));
    if (res.status !== 200 || res.body.state !== 'running') return res;
    if (Date.now() > until)
      throw new Error(`The storage rewrite run at ${path} is still running`);
    await new Promise(r => setTimeout(r, 50));
  }
}

/**
 * POSTs a storage rewrite (`query` such as `?namespace=x&dryRun=true`, or '' for every namespace)
 * and, when it started, follows the Location header until the run ended.
 */
export async function rewriteToEnd(
  backend: Pick<KryptonTestBackend, 'server'>,
  query: string,
  options: { user?: string; cluster?: string } = {},
): Promise<RewriteToEnd> {
  const user = options.user ?? 'root';
  const cluster = options.cluster ? `/clusters/${options.cluster}` : '';
  const start = await request(backend.server)
    .post(`/api/krypton${cluster}/storage-rewrite${query}`)
    .set('Authorization', as(user));
  if (start.status !== 202) return { start };
  const location = start.headers.location;
  if (
    location !== `/api/krypton${cluster}/storage-rewrite/runs/${start.body.id}`
  )
    throw new Error(`Unexpected Location: ${location}`);
  const final = await waitForRun(backend, location, user);
  const run = final.body as StorageRewriteRunStatus;
  return { start, final, run, result: run.result };
}
