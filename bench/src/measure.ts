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
