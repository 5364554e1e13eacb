import { KubeTransport } from '@krypton/plugin-krypton-backend/src/kubernetes/transport';
import { median } from './measure';

interface Trip {
  start: number;
  end: number;
}

/** Where one request's time went: before its first Kubernetes request, in them, and around them. */
export interface Breakdown {
  name: string;
  totalMs: number[];
  beforeMs: number[];
  kubeMs: number[];
  localMs: number[];
  trips: number[];
}

/**
 * Times every Kubernetes round trip of the in-process backend under test by wrapping
 * KubeTransport.request, the one place all of them pass through. Overlapping trips count once.
 */
export class RoundTripClock {
  private trips: Trip[] = [];
  private readonly original = KubeTransport.prototype.request;

  install(): void {
    const original = this.original;
    const trips = this.trips;
    KubeTransport.prototype.request = async function timed(
      this: KubeTransport,
      ...args: Parameters<KubeTransport['request']>
    ) {
      const start = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        trips.push({ start, end: performance.now() });
      }
    };
  }

  uninstall(): void {
    KubeTransport.prototype.request = this.original;
  }

  /** Runs op and splits its time; op's own client time counts as local. */
  async split(
    op: () => Promise<unknown>,
  ): Promise<{ total: number; before: number; kube: number; trips: number }> {
    this.trips.length = 0;
    const t0 = performance.now();
    await op();
    const total = performance.now() - t0;
    const trips = [...this.trips].sort((a, b) => a.start - b.start);
    let kube = 0;
    let reach = t0;
    for (const trip of trips) {
      const from = Math.max(trip.start, reach);
      if (trip.end > from) kube += trip.end - from;
      reach = Math.max(reach, trip.end);
    }
    const before = trips.length > 0 ? trips[0].start - t0 : total;
    return { total, before, kube, trips: trips.length };
  }

  /** Measures op like measure() does, with the split of each timed run. */
  async measure(
    name: string,
    op: () => Promise<unknown>,
    options: { warmup: number; runs: number },
  ): Promise<Breakdown> {
    for (let i = 0; i < options.warmup; i++) await op();
    const out: Breakdown = {
      name,
      totalMs: [],
      beforeMs: [],
      kubeMs: [],
      localMs: [],
      trips: [],
    };
    for (let i = 0; i < options.runs; i++) {
      const s = await this.split(op);
      out.totalMs.push(s.total);
      out.beforeMs.push(s.before);
      out.kubeMs.push(s.kube);
      out.localMs.push(Math.max(0, s.total - s.before - s.kube));
      out.trips.push(s.trips);
    }
    return out;
  }
}

/** One breakdown as table cells: medians of each part. */
export function breakdownRow(b: Breakdown): Array<string | number> {
  const f = (xs: number[]) => median(xs).toFixed(2);
  return [
    b.name,
    f(b.totalMs),
    f(b.beforeMs),
    f(b.kubeMs),
    median(b.trips),
    f(b.localMs),
  ];
}
