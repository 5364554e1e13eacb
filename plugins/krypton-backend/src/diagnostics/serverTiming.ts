import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { RequestHandler } from 'express';

/**
 * Where a request's time goes, as the benchmarks split it: verifying the caller's token, resolving
 * their ownership (user info), asking the permission framework, Kubernetes round trips, and
 * writing audit events. The rest of Krypton's time (validation, hashing, JSON) is `app`.
 */
export type TimingPhase = 'auth' | 'user' | 'permission' | 'kube' | 'audit';

const PHASES: readonly TimingPhase[] = [
  'auth',
  'user',
  'permission',
  'kube',
  'audit',
];

interface Span {
  start: number;
  end: number;
}

class RequestTimings {
  readonly start = performance.now();
  private readonly spans = new Map<TimingPhase, Span[]>();

  add(phase: TimingPhase, start: number, end: number): void {
    const spans = this.spans.get(phase);
    if (spans) spans.push({ start, end });
    else this.spans.set(phase, [{ start, end }]);
  }

  /**
   * One entry per phase with its wall time and how many calls made it. Calls that overlap (a
   * history list beside a snapshot create) count once, so the phases never add up to more than
   * the request took.
   */
  header(now: number): string {
    const total = now - this.start;
    const covered: Span[] = [];
    const entries = PHASES.flatMap(phase => {
      const spans = this.spans.get(phase);
      if (!spans) return [];
      covered.push(...spans);
      return [`${phase};dur=${union(spans).toFixed(2)};desc="${spans.length}"`];
    });
    entries.push(`app;dur=${Math.max(0, total - union(covered)).toFixed(2)}`);
    entries.push(`total;dur=${total.toFixed(2)}`);
    return entries.join(', ');
  }
}

function union(spans: Span[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let sum = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const span of sorted) {
    if (span.start > end) {
      if (end > start) sum += end - start;
      start = span.start;
      end = span.end;
    } else if (span.end > end) end = span.end;
  }
  if (end > start) sum += end - start;
  return sum;
}

const current = new AsyncLocalStorage<RequestTimings>();

/**
 * Runs one step of a request and, when Server-Timing is on for it, records how long the step
 * took. Off (no middleware), it only calls the step.
 */
export function timed<T>(
  phase: TimingPhase,
  step: () => Promise<T>,
): Promise<T> {
  const timings = current.getStore();
  // Not async: with Server-Timing off, every Kubernetes, permission and audit call passes through
  // here, and should cost no extra promise.
  if (!timings) return step();
  const start = performance.now();
  return step().finally(() => timings.add(phase, start, performance.now()));
}

/**
 * Starts work that outlives its request (a storage rewrite run) outside the request's timings,
 * which would otherwise keep a span of each of its calls until the work ends.
 */
export function outsideRequest<T>(work: () => T): T {
  return current.exit(work);
}

/**
 * Adds a `Server-Timing` header with the phases of each request (`krypton.diagnostics.serverTiming`).
 * It names only phases and durations, never a path, a name or a value; it stays off by default
 * because response timing is still information an operator may not want to hand to every client.
 */
export function serverTiming(): RequestHandler {
  return (_req, res, next) => {
    const timings = new RequestTimings();
    const writeHead = res.writeHead;
    res.writeHead = function writeHeadWithTiming(
      this: typeof res,
      ...args: Parameters<typeof res.writeHead>
    ) {
      if (!this.headersSent) {
        this.setHeader('Server-Timing', timings.header(performance.now()));
      }
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    current.run(timings, next);
  };
}
