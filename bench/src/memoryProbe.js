/*
 * Preloaded into the deployed backend by the benches that measure its memory (`node --expose-gc
 * --require memoryProbe.js`, BENCH_MEMORY_PROBE_DIR set). A resident set says how much memory V8
 * and the allocator hold, not what the backend keeps: V8 collects garbage when its heap limits say
 * so, and freed pages are not always given back. So the probe answers from inside the process:
 *
 * - "gc": full collections now, then process.memoryUsage(): the memory that survives them, what
 *   the backend keeps.
 * - "collectEvery <ms>": full collections every <ms> from now on ("collectEvery 0" stops them),
 *   each followed by a sample, so that the peak of what the backend keeps during a run is seen
 *   rather than only what is left at its end. Forced collections change how V8 sizes its heap, so
 *   a run measured this way says nothing about the resident set of an unprobed one.
 * - "peak": the highest figures sampled every 20 ms since the last "peak" (garbage included),
 *   the highest after the periodic collections with their count and time, and the memory now;
 *   then starts again.
 *
 * Until it is asked, the probe only samples process.memoryUsage() every 20 ms, which allocates
 * next to nothing. The bench renames "<seq> <verb> [arg]" into <dir>/cmd; the probe appends one
 * JSON line per command to <dir>/out. A file, not IPC: an IPC channel would change how
 * Backstage's backend starts.
 */
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_MEMORY_PROBE_DIR;
if (dir && typeof global.gc === 'function') {
  const gc = global.gc;
  const cmdFile = path.join(dir, 'cmd');
  const outFile = path.join(dir, 'out');
  const keys = ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers'];
  const zero = () => Object.fromEntries(keys.map(k => [k, 0]));
  const raise = (peak, now) => {
    for (const k of keys) peak[k] = Math.max(peak[k], now[k]);
  };
  // Two passes: the first can leave objects whose finalizers free more in the second.
  const collect = () => {
    gc();
    gc();
    return process.memoryUsage();
  };

  let sampled = zero();
  let collected = { memory: zero(), collections: 0, ms: 0 };
  let collector;
  let lastSeq = '';

  const answer = (verb, arg) => {
    if (verb === 'gc') return collect();
    if (verb === 'collectEvery') {
      clearInterval(collector);
      collector = undefined;
      const ms = Number(arg);
      if (ms > 0) {
        collector = setInterval(() => {
          const started = performance.now();
          raise(collected.memory, collect());
          collected.ms += performance.now() - started;
          collected.collections++;
        }, ms);
        collector.unref();
      }
      return {};
    }
    if (verb === 'peak') {
      const out = { sampled, collected, now: process.memoryUsage() };
      sampled = zero();
      collected = { memory: zero(), collections: 0, ms: 0 };
      raise(sampled, out.now);
      return out;
    }
    return { error: `unknown verb "${verb}"` };
  };

  setInterval(() => {
    raise(sampled, process.memoryUsage());
    if (!fs.existsSync(cmdFile)) return;
    const [seq, verb, arg] = fs.readFileSync(cmdFile, 'utf8').trim().split(' ');
    if (!seq || seq === lastSeq) return;
    lastSeq = seq;
    const result = answer(verb, arg);
    fs.appendFileSync(outFile, `${JSON.stringify({ seq, result })}\n`);
  }, 20).unref();
}
