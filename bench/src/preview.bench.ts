import {
  PortalStack,
  createManagedSecret,
  detailPath,
  launchBrowser,
  provideStack,
  signedInContext,
  startPortalStack,
} from '@krypton/browser-tests';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { productionApp } from './appBuild';
import { formatColumns, median } from './measure';
import {
  codeBlockMarkdown,
  cutoffMarkdown,
  listMarkdown,
  prose,
  runbookMarkdown,
  unclosedImages,
  yamlTags,
} from './previewText';

// Render time of the value preview in Chromium, in both builds of the example portal: the
// development build that `./krypton start` serves, and the production build (`backstage-cli
// package build` of the app) that the example backend's app plugin serves as a deployment does.
// From the click that opens a value to the first frame painted with all of it, for Markdown at
// the preview limit (131,072 UTF-16 code units), the raw-text fallback one code unit above it, and
// the raw text of a plain value of the same size (the baseline of each build); with the delay of
// key presses sent while it renders.

const LIMIT = 131_072;
const WARMUP = 2;
const RUNS = 20;
/** A case is measured again when the dev server rebuilt the app while it ran. */
const ATTEMPTS = 3;
/** The gap between two key presses sent while a preview renders, in ms. */
const KEY_GAP = 20;
/** MAX_ELEMENTS of the preview (plugins/krypton/.../values/markdownParse.ts). */
const MAX_ELEMENTS = 16_384;

interface Build {
  name: 'development' | 'production';
  context: BrowserContext;
}

type Button = 'Expand value' | 'Raw';

interface Case {
  name: string;
  secret: string;
  key: string;
  value: string;
  button: Button;
  /** Matches only once this case's content has been committed to the DOM. */
  selector: string;
  /** Checked once, untimed, after the warm-ups: the content is what the case claims. */
  expectText?: string;
}

/** One timed run, in milliseconds of the page's clock. */
interface Run {
  /** From the click to the end of the first frame rendered after the content was in the DOM. */
  total: number;
  /** From the click to the commit that put the content in the DOM. */
  dom: number;
  /** The longest main-thread task (Long Tasks API) of the run. */
  longestTask: number;
  /** The longest animation frame (Long Animation Frames API): task time plus rendering. */
  longestFrame: number;
  /** Of that frame: style, layout and paint. */
  frameRender: number;
  /** The longest wait of a key press sent during the run for its keydown handler, in ms. */
  inputDelay: number;
  /** How many key presses were handled during the run. */
  inputs: number;
}

// The panel of an expanded row spans the table's five columns.
const PANEL = 'td[colspan="5"]';
// The Markdown preview says aria-busy="true" until its last slice is committed.
const DONE = `${PANEL} [aria-busy="false"]`;
/**
 * A block of a finished Markdown preview. The second form matches the preview from before it
 * rendered in slices (no aria-busy; a build of an older commit given in KRYPTON_BENCH_APP_DIST).
 */
const done = (tag: string) =>
  `${DONE} ${tag}, ${PANEL} div:not([aria-busy]) > ${tag}`;

function cases(): Case[] {
  const plain = prose(LIMIT);
  const markdown = runbookMarkdown(LIMIT);
  const images = `# Broken images\n\n${unclosedImages(LIMIT - 17)}`;
  return [
    {
      name: 'plain text @131,072, Raw (baseline)',
      secret: 'bench-preview-plain',
      key: 'notes.txt',
      value: plain,
      button: 'Raw',
      selector: 'pre[aria-label="Raw value of notes.txt"]',
    },
    {
      name: 'plain text @131,072, Expand (Auto: Text)',
      secret: 'bench-preview-plain',
      key: 'notes.txt',
      value: plain,
      button: 'Expand value',
      selector: `${PANEL} pre[aria-label="Text preview"]`,
      expectText: 'Detected: Text',
    },
    {
      name: 'Markdown @131,072, Raw',
      secret: 'bench-preview-md',
      key: 'runbook.md',
      value: markdown,
      button: 'Raw',
      selector: 'pre[aria-label="Raw value of runbook.md"]',
    },
    {
      name: 'Markdown runbook @131,072, Expand',
      secret: 'bench-preview-md',
      key: 'runbook.md',
      value: markdown,
      button: 'Expand value',
      selector: done('h2'),
      expectText: 'Detected: Markdown',
    },
    {
      name: 'Markdown @131,073, Expand (fallback)',
      secret: 'bench-preview-md-fallback',
      key: 'runbook.md',
      value: `${markdown}\n`,
      button: 'Expand value',
      selector: `${PANEL} pre[aria-label="Raw text"]`,
      expectText: `This value is larger than 131,072 characters, so it is shown as raw text.`,
    },
    {
      name: 'checklist @131,072 (2,048 linked items, the old cutoff)',
      secret: 'bench-preview-md-cutoff',
      key: 'audit.md',
      value: cutoffMarkdown(LIMIT),
      button: 'Expand value',
      selector: done('ul'),
      expectText: 'Detected: Markdown',
    },
    {
      name: 'code block @131,072 (a diff; over the old cutoff)',
      secret: 'bench-preview-md-code',
      key: 'change.md',
      value: codeBlockMarkdown(LIMIT),
      button: 'Expand value',
      selector: `${DONE} code.language-diff`,
      expectText: 'Detected: Markdown',
    },
    {
      name: `list at the element budget (${(MAX_ELEMENTS - 2).toLocaleString(
        'en-US',
      )} items)`,
      secret: 'bench-preview-md-budget',
      key: 'hosts.md',
      value: listMarkdown(MAX_ELEMENTS - 2),
      button: 'Expand value',
      selector: `${DONE} ul`,
      expectText: 'Detected: Markdown',
    },
    {
      name: 'list one element over the budget (raw)',
      secret: 'bench-preview-md-over-budget',
      key: 'hosts.md',
      value: listMarkdown(MAX_ELEMENTS - 1),
      button: 'Expand value',
      selector: `${PANEL} pre[aria-label="Raw Markdown text"]`,
      expectText: 'too many Markdown elements',
    },
    {
      name: 'unclosed "![" @131,072 (slowest parse found)',
      secret: 'bench-preview-md-images',
      key: 'images.md',
      value: images,
      button: 'Expand value',
      selector: `${DONE} p`,
      expectText: 'Detected: Markdown',
    },
    {
      name: 'tags "! " @131,072 (slowest YAML detection found)',
      secret: 'bench-preview-tags',
      key: 'tags.txt',
      value: yamlTags(LIMIT),
      button: 'Expand value',
      selector: `${PANEL} pre[aria-label="Text preview"]`,
      expectText: 'Detected: Text',
    },
    {
      name: 'Markdown runbook @65,536, Expand',
      secret: 'bench-preview-md-64k',
      key: 'runbook.md',
      value: runbookMarkdown(65_536),
      button: 'Expand value',
      selector: done('h2'),
      expectText: 'Detected: Markdown',
    },
    {
      name: 'Markdown runbook @16,384, Expand',
      secret: 'bench-preview-md-16k',
      key: 'runbook.md',
      value: runbookMarkdown(16_384),
      button: 'Expand value',
      selector: done('h2'),
      expectText: 'Detected: Markdown',
    },
  ];
}

/**
 * One run, entirely inside the page: the click is dispatched in-page right after a frame was
 * rendered, a MutationObserver notes when the content is committed, and the run ends in a task
 * posted from the requestAnimationFrame callback of the first frame that starts after that commit,
 * i.e. once that frame's style, layout and paint are done. Long tasks and long animation frames
 * that overlap the run are collected with PerformanceObserver.
 */
async function timedRun(page: Page, c: Case): Promise<Run> {
  return page.evaluate(
    async ({ key, button, selector }) => {
      const row = Array.from(document.querySelectorAll('tr')).find(
        tr => tr.querySelector('[role="rowheader"]')?.textContent === key,
      );
      const target = row?.querySelector<HTMLButtonElement>(
        `button[aria-label="${button}"]`,
      );
      if (!target) throw new Error(`no ${button} button for ${key}`);
      if (document.querySelector(selector)) {
        throw new Error(`${selector} is already shown`);
      }

      interface Timing {
        startTime: number;
        duration: number;
        renderStart?: number;
      }
      const tasks: Timing[] = [];
      const frames: Timing[] = [];
      const taskObserver = new PerformanceObserver(list => {
        tasks.push(...(list.getEntries() as Timing[]));
      });
      taskObserver.observe({ type: 'longtask' });
      const frameObserver = new PerformanceObserver(list => {
        frames.push(...(list.getEntries() as Timing[]));
      });
      frameObserver.observe({ type: 'long-animation-frame' });

      // Resolves with the time of the next frame's rAF callback and the time at which a task
      // posted from it runs, which is after that frame has been rendered.
      const nextFrame = () =>
        new Promise<{ raf: number; painted: number }>(resolve => {
          requestAnimationFrame(() => {
            const raf = performance.now();
            const channel = new MessageChannel();
            channel.port1.onmessage = () =>
              resolve({ raf, painted: performance.now() });
            channel.port2.postMessage(null);
          });
        });

      // Key presses are sent from outside the page every few ms while the run lasts; each one
      // waits for the main thread, and that wait is what a user feels as a slow page.
      const keys: Array<{ at: number; delay: number }> = [];
      const onKey = (e: KeyboardEvent) =>
        keys.push({ at: e.timeStamp, delay: performance.now() - e.timeStamp });
      window.addEventListener('keydown', onKey, true);

      let committed = NaN;
      const mutations = new MutationObserver(() => {
        if (Number.isNaN(committed) && document.querySelector(selector)) {
          committed = performance.now();
        }
      });
      mutations.observe(document.body, { childList: true, subtree: true });

      // Start like a fresh input event: in a task of its own, just after a frame.
      await nextFrame();
      const t0 = performance.now();
      target.click();
      let end = NaN;
      for (let i = 0; i < 600 && Number.isNaN(end); i++) {
        const frame = await nextFrame();
        if (!Number.isNaN(committed) && committed <= frame.raf) {
          end = frame.painted;
        }
      }
      mutations.disconnect();
      window.removeEventListener('keydown', onKey, true);
      if (Number.isNaN(end)) throw new Error(`${selector} never appeared`);

      // Entries are delivered after the frame that they describe.
      await new Promise(r => setTimeout(r, 200));
      tasks.push(...(taskObserver.takeRecords() as Timing[]));
      frames.push(...(frameObserver.takeRecords() as Timing[]));
      taskObserver.disconnect();
      frameObserver.disconnect();
      const overlaps = (e: Timing) =>
        e.startTime + e.duration >= t0 && e.startTime <= end;
      const runTasks = tasks.filter(overlaps);
      const runFrames = frames.filter(overlaps);
      const longest = runFrames.reduce<Timing | undefined>(
        (a, b) => (a && a.duration >= b.duration ? a : b),
        undefined,
      );
      const runKeys = keys.filter(k => k.at >= t0 && k.at <= end);
      return {
        inputDelay: Math.max(0, ...runKeys.map(k => k.delay)),
        inputs: runKeys.length,
        total: end - t0,
        dom: committed - t0,
        longestTask: Math.max(0, ...runTasks.map(e => e.duration)),
        longestFrame: longest?.duration ?? 0,
        frameRender:
          longest && longest.renderStart
            ? longest.startTime + longest.duration - longest.renderStart
            : 0,
      };
    },
    { key: c.key, button: c.button, selector: c.selector },
  );
}

/** Runs one timed run while key presses go to the page every KEY_GAP ms. */
async function runWithKeys(page: Page, c: Case): Promise<Run> {
  let running = true;
  const presses = (async () => {
    while (running) {
      await page.keyboard.press('Shift');
      await new Promise(r => setTimeout(r, KEY_GAP));
    }
  })();
  try {
    return await timedRun(page, c);
  } finally {
    running = false;
    await presses;
  }
}

/** Back to the masked row: Hide closes the panel too. Then a full GC and a quiet moment. */
async function reset(page: Page, c: Case): Promise<void> {
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: c.key }) });
  const hide = row.getByRole('button', { name: 'Hide' });
  if (await hide.count()) await hide.click();
  await page.locator(c.selector).waitFor({ state: 'detached' });
  await row.getByRole('button', { name: 'Reveal' }).waitFor();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
  } finally {
    await cdp.detach();
  }
  await page.waitForTimeout(300);
}

/**
 * The runs of one case on a page of its own. Other work on the same tree makes the dev server
 * rebuild (and the page hot-reload): its client reports that on the console, and the case is
 * measured again on a fresh page.
 */
async function measureCase(
  context: BrowserContext,
  build: string,
  c: Case,
): Promise<Run[]> {
  for (let attempt = 1; ; attempt++) {
    const page = await context.newPage();
    let rebuilt = false;
    page.on('console', message => {
      if (/\[webpack-dev-server\] App updated|\[HMR\]/.test(message.text())) {
        rebuilt = true;
      }
    });
    try {
      await page.goto(detailPath(c.secret));
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: c.key }) })
        .waitFor();
      await page.waitForTimeout(1000);
      rebuilt = false;
      const runs: Run[] = [];
      try {
        for (let i = 0; i < WARMUP + RUNS && !rebuilt; i++) {
          await reset(page, c);
          const run = await runWithKeys(page, c);
          if (i === 0) await verify(page, c);
          if (i >= WARMUP) runs.push(run);
        }
      } catch (e) {
        // A hot reload in the middle of a run destroys its execution context.
        if (!rebuilt) throw e;
      }
      if (!rebuilt) {
        await traceRun(page, build, c);
        return runs;
      }
      if (attempt >= ATTEMPTS) {
        throw new Error(
          `${c.name}: the dev server rebuilt the app during each of ${ATTEMPTS} attempts`,
        );
      }
      process.stdout.write(
        `[bench] ${c.name}: the dev server rebuilt the app; measuring again\n`,
      );
    } finally {
      await page.close();
    }
  }
}

/**
 * KRYPTON_BENCH_PREVIEW_TRACE=<directory>: one more run of each case, untimed and without key
 * presses, recorded as a Chromium performance trace (`<build>-<case>.json`, for the Performance
 * panel of DevTools or ui.perfetto.dev) to see where its time goes.
 */
async function traceRun(page: Page, build: string, c: Case): Promise<void> {
  const dir = process.env.KRYPTON_BENCH_PREVIEW_TRACE;
  const browser = page.context().browser();
  if (!dir || !browser) return;
  mkdirSync(dir, { recursive: true });
  const file = join(
    dir,
    `${build}-${c.name.replace(/[^\w@,.-]+/g, '-').replace(/-+$/, '')}.json`,
  );
  await reset(page, c);
  await browser.startTracing(page, {
    path: file,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'blink.user_timing',
      'v8.execute',
      'disabled-by-default-v8.cpu_profiler',
    ],
  });
  try {
    await timedRun(page, c);
  } finally {
    await browser.stopTracing();
  }
  process.stdout.write(`[bench] ${c.name}: trace in ${file}\n`);
}

/** What the case claims: the expected notice or detected format, and the whole value shown. */
async function verify(page: Page, c: Case): Promise<void> {
  if (c.expectText) {
    await page.getByText(c.expectText, { exact: false }).first().waitFor();
  }
  const shown = await page.evaluate(selector => {
    const el = document.querySelector(selector);
    return el?.tagName === 'PRE' ? el.textContent?.length ?? 0 : undefined;
  }, c.selector);
  if (shown !== undefined && shown !== c.value.length) {
    throw new Error(
      `${c.name}: ${shown} code units shown, not ${c.value.length}`,
    );
  }
}

const ms = (x: number) => x.toFixed(1);
// Both APIs report only entries of 50 ms or more.
const longMs = (x: number) => (x > 0 ? x.toFixed(1) : '<50');
const p = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((q / 100) * sorted.length) - 1)];
};

/**
 * A browser context signed in as the demo's guest on the portal at `url`: the production build
 * is served by the backend, on its own origin.
 */
async function signedInAt(
  browser: Browser,
  url: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    baseURL: url,
  });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.goto('/');
  const enter = page.getByRole('button', { name: 'Enter' });
  await enter.click();
  await enter.waitFor({ state: 'detached' });
  await page.close();
  return context;
}

describe('preview', () => {
  let portal: PortalStack | undefined;
  let browser: Browser | undefined;
  const builds: Build[] = [];
  let appNote = '';

  beforeAll(async () => {
    // Before the portal starts: its backend's app plugin serves what it finds at startup.
    const app = await productionApp();
    if (app.from) {
      appNote = `The production build is the one given in KRYPTON_BENCH_APP_DIST (${app.from}), not of this tree.`;
    } else if (app.built) {
      appNote = `The production build was made in this run (${Math.round(
        app.buildMs / 1000,
      )} s).`;
    } else {
      appNote =
        'The production build came from .cache/bench/app-production (its sources are unchanged).';
    }
    const started = Date.now();
    portal = await startPortalStack();
    provideStack(portal.info);
    process.stdout.write(
      `\n[bench] portal ready at ${portal.info.appUrl} in ${
        Date.now() - started
      } ms; ${appNote}\n`,
    );
    browser = await launchBrowser();
    // KRYPTON_BENCH_PREVIEW_BUILDS=production (or development): one build only, say while the
    // dev server cannot serve the tree that other work is editing.
    const wanted = (
      process.env.KRYPTON_BENCH_PREVIEW_BUILDS ?? 'development,production'
    ).split(',');
    if (wanted.includes('development')) {
      builds.push({
        name: 'development',
        context: await signedInContext(browser),
      });
    }
    if (wanted.includes('production')) {
      builds.push({
        name: 'production',
        context: await signedInAt(browser, portal.info.backendUrl),
      });
    }
    if (builds.length === 0) {
      throw new Error('KRYPTON_BENCH_PREVIEW_BUILDS names no build');
    }
  }, 30 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  }, 120_000);

  it(
    'renders Markdown at the limit, the fallback above it and raw text, in both builds',
    async () => {
      // KRYPTON_BENCH_PREVIEW_CASES=<regular expression>: only the cases it matches, and the
      // baseline.
      const only = process.env.KRYPTON_BENCH_PREVIEW_CASES;
      const all = cases().filter(
        (c, i) => i === 0 || !only || new RegExp(only).test(c.name),
      );
      const secrets = new Map<string, Record<string, string>>();
      for (const c of all) {
        secrets.set(c.secret, { ...secrets.get(c.secret), [c.key]: c.value });
      }
      for (const [name, values] of secrets) {
        await createManagedSecret(name, values);
      }

      const loadBefore = loadavg()[0];
      // Case by case, both builds in turn, so that a slow stretch of the machine falls on both.
      const results = new Map<string, Run[]>();
      const keyOf = (b: Build, c: Case) => `${b.name}\u0000${c.name}`;
      for (const c of all) {
        for (const b of builds) {
          results.set(keyOf(b, c), await measureCase(b.context, b.name, c));
        }
      }
      const loadAfter = loadavg()[0];

      const totals = (b: Build, c: Case) =>
        results.get(keyOf(b, c))!.map(r => r.total);
      const tables = builds.map(b => {
        const base50 = p(totals(b, all[0]), 50);
        const base95 = p(totals(b, all[0]), 95);
        const timeRows = all.map(c => {
          const total = totals(b, c);
          return [
            c.name,
            c.value.length.toLocaleString('en-US'),
            ms(p(total, 50)),
            ms(p(total, 95)),
            (p(total, 50) / base50).toFixed(2),
            (p(total, 95) / base95).toFixed(2),
          ];
        });
        const threadRows = all.map(c => {
          const runs = results.get(keyOf(b, c))!;
          return [
            c.name,
            ms(median(runs.map(r => r.dom))),
            longMs(median(runs.map(r => r.longestTask))),
            longMs(Math.max(...runs.map(r => r.longestTask))),
            longMs(median(runs.map(r => r.longestFrame))),
            longMs(median(runs.map(r => r.frameRender))),
            ms(median(runs.map(r => r.inputDelay))),
            ms(Math.max(...runs.map(r => r.inputDelay))),
            String(median(runs.map(r => r.inputs))),
          ];
        });
        return `${formatColumns(
          `${b.name} build: click to the first paint with all of the value, ms (ratios against this build's baseline)`,
          ['case', 'code units', 'p50 ms', 'p95 ms', '× p50', '× p95'],
          timeRows,
        )}\n\n${formatColumns(
          `${b.name} build: main thread per run (medians, ms; "max" over all runs)`,
          [
            'case',
            'click→DOM',
            'longest task',
            'longest task max',
            'longest frame',
            'of it rendering',
            'key delay',
            'key delay max',
            'keys',
          ],
          threadRows,
        )}`;
      });
      const short = { development: 'dev', production: 'prod' };
      const summaryRows = all.map(c => {
        const row = [c.name];
        for (const b of builds) {
          const p50 = p(totals(b, c), 50);
          row.push(ms(p50), (p50 / p(totals(b, all[0]), 50)).toFixed(2));
        }
        if (builds.length === 2) {
          row.push(
            (p(totals(builds[1], c), 50) / p(totals(builds[0], c), 50)).toFixed(
              2,
            ),
          );
        }
        return row;
      });
      process.stdout.write(
        `\n${tables.join('\n\n')}\n\n${formatColumns(
          `Preview render in ${browser!.version()} (headless), ${new Date().toISOString()}, ${
            cpus().length
          } cores; ${RUNS} runs after ${WARMUP} warm-ups per case and build; p50 ms, × the same build's raw-text baseline`,
          [
            'case',
            ...builds.flatMap(b => [
              `${short[b.name]} p50`,
              `${short[b.name]} ×`,
            ]),
            ...(builds.length === 2 ? ['prod / dev'] : []),
          ],
          summaryRows,
          [
            '',
            "development: the dev server of `backstage-cli repo start` (React in development mode); production: `yarn workspace app build`, served by the example backend's app plugin.",
            `Key presses go to the page every ${KEY_GAP} ms during each run; "key delay" is the longest wait of one for its keydown handler (event time to handler).`,
            'Long tasks and long animation frames are reported by Chromium only from 50 ms.',
            appNote,
            `Load average (1 min; includes this run's build and portal start-up) before and after measuring: ${loadBefore.toFixed(
              2,
            )}, ${loadAfter.toFixed(2)}.`,
          ],
        )}\n`,
      );
    },
    90 * 60_000,
  );
});
