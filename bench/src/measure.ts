/** Latency samples of one operation, in milliseconds. */
export interface Sample {
  name: string;
  ms: number[];
}

/** One line of a benchmark table: a figure and its ratio against the run's baseline. */
export interface Row {
  name: string;
  p50: number;
  p95: number;
  ratioP50?: number;
  ratioP95?: number;
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(
    sorted.length - 1,
    Math.ceil((p / 100) * sorted.length) - 1,
  );
  return sorted[Math.max(0, i)];
}

/** Runs op sequentially: warm-up runs first, then the timed ones. */
export async function measure(
  name: string,
  op: () => Promise<unknown>,
  options: { warmup?: number; runs?: number } = {},
): Promise<Sample> {
  for (let i = 0; i < (options.warmup ?? 30); i++) await op();
  const ms: number[] = [];
  for (let i = 0; i < (options.runs ?? 300); i++) {
    const t0 = process.hrtime.bigint();
    await op();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { name, ms };
}

export function toRow(sample: Sample, baseline?: Sample): Row {
  const sorted = [...sample.ms].sort((a, b) => a - b);
  const row: Row = {
    name: sample.name,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
  };
  if (baseline) {
    const base = [...baseline.ms].sort((a, b) => a - b);
    row.ratioP50 = row.p50 / percentile(base, 50);
    row.ratioP95 = row.p95 / percentile(base, 95);
  }
  return row;
}

/** A plain-text table: one row per operation, ratios against the named baseline. */
export function formatTable(
  title: string,
  rows: Array<{ sample: Sample; baseline?: Sample }>,
): string {
  const lines = [
    title,
    `${'operation'.padEnd(44)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(
      8,
    )} ${'× p50'.padStart(7)} ${'× p95'.padStart(7)}`,
  ];
  for (const { sample, baseline } of rows) {
    const r = toRow(sample, baseline);
    const ratio = (x?: number) => (x === undefined ? '' : x.toFixed(2));
    lines.push(
      `${r.name.padEnd(44)} ${r.p50.toFixed(2).padStart(8)} ${r.p95
        .toFixed(2)
        .padStart(8)} ${ratio(r.ratioP50).padStart(7)} ${ratio(
        r.ratioP95,
      ).padStart(7)}`,
    );
  }
  return lines.join('\n');
}

/** The median of some figures (the lower middle one for an even count). */
export function median(values: number[]): number {
  return percentileOf(values, 50);
}

/** The p-th percentile of some figures, in any order (nearest rank). */
export function percentileOf(values: number[], p: number): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** A plain-text table with aligned columns: text columns left-aligned, numbers right-aligned. */
export function formatColumns(
  title: string,
  header: string[],
  rows: Array<Array<string | number>>,
  notes: string[] = [],
): string {
  const cells = [header, ...rows.map(r => r.map(c => String(c)))];
  const numeric = header.map((_, i) =>
    rows.every(
      r => typeof r[i] === 'number' || /^[-+0-9.,×%]*$/.test(String(r[i])),
    ),
  );
  const widths = header.map((_, i) =>
    Math.max(...cells.map(r => (r[i] ?? '').length)),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) =>
        numeric[i]
          ? (c ?? '').padStart(widths[i])
          : (c ?? '').padEnd(widths[i]),
      )
      .join('  ')
      .trimEnd();
  return [title, ...cells.map(line), ...notes].join('\n');
}

/** Bytes as MiB with one decimal. */
export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** What the process held while an operation ran, sampled on a timer. */
export interface MemoryPeak {
  /** process.memoryUsage().rss just before the operation. */
  rssBefore: number;
  /** The highest rss sampled during the operation (and once at its end). */
  rssPeak: number;
  /**
   * heapUsed + arrayBuffers just before, and the highest sum sampled. Not `external`: Node lowers
   * it late after a Buffer is freed, so it can count the previous run's answer as still held.
   */
  heapBefore: number;
  heapPeak: number;
  samples: number;
}

/**
 * Runs op while sampling process.memoryUsage() every intervalMs, and once more when it ends.
 * Samples are taken only when the event loop is free, so a synchronous burst (a large
 * JSON.parse) is seen through the memory it leaves behind until the next collection.
 */
export async function withMemorySampling<T>(
  op: () => Promise<T>,
  intervalMs = 10,
): Promise<{ value: T; ms: number; memory: MemoryPeak }> {
  const first = process.memoryUsage();
  const memory: MemoryPeak = {
    rssBefore: first.rss,
    rssPeak: first.rss,
    heapBefore: first.heapUsed + first.arrayBuffers,
    heapPeak: first.heapUsed + first.arrayBuffers,
    samples: 0,
  };
  const sample = () => {
    const m = process.memoryUsage();
    memory.rssPeak = Math.max(memory.rssPeak, m.rss);
    memory.heapPeak = Math.max(memory.heapPeak, m.heapUsed + m.arrayBuffers);
    memory.samples++;
  };
  const timer = setInterval(sample, intervalMs);
  const t0 = process.hrtime.bigint();
  try {
    const value = await op();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    sample();
    return { value, ms, memory };
  } finally {
    clearInterval(timer);
  }
}

let gcFunction: (() => void) | null | undefined;

/**
 * A full garbage collection, so that memory samples start from a settled heap. Jest does not
 * expose gc; V8's flag is turned on at run time and the function taken from a fresh context.
 * Returns false where that is not possible.
 */
export function collectGarbage(): boolean {
  if (gcFunction === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-var-requires
      require('node:v8').setFlagsFromString('--expose-gc');
      // eslint-disable-next-line @typescript-eslint/no-var-requires
      gcFunction = require('node:vm').runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  if (!gcFunction) return false;
  gcFunction();
  return true;
}

/**
 * The memory of one run of op, sampled as withMemorySampling does, after a full GC. Only the
 * figures come back: op's result is dropped here, so that the caller's next run does not start
 * with it still held (a suspended async function keeps its last values alive through a GC).
 */
export async function sampleMemory(
  op: () => Promise<unknown>,
  intervalMs = 10,
): Promise<MemoryPeak> {
  await new Promise(resolve => setImmediate(resolve));
  collectGarbage();
  const { memory } = await withMemorySampling(op, intervalMs);
  return memory;
}
