import {
  PortalStack,
  createManagedSecret,
  detailPath,
  launchBrowser,
  provideStack,
  signedInContext,
  startPortalStack,
} from '@krypton/browser-tests';
import { cpus, loadavg } from 'node:os';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { formatColumns, median } from './measure';
import {
  complexity,
  cutoffMarkdown,
  prose,
  runbookMarkdown,
} from './previewText';

// Render time of the value preview in Chromium, on the example portal of `./krypton start`: from
// the click that opens a value to the first frame painted with it, for Markdown at the preview
// limit (131,072 UTF-16 code units), the raw-text fallback one code unit above it, and the raw
// text of a plain value of the same size (the baseline).

const LIMIT = 131_072;
const WARMUP = 2;
const RUNS = 20;
/** A case is measured again when the dev server rebuilt the app while it ran. */
const ATTEMPTS = 3;

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
}

// The panel of an expanded row spans the table's five columns.
const PANEL = 'td[colspan="5"]';

function cases(): Case[] {
  const plain = prose(LIMIT);
  const markdown = runbookMarkdown(LIMIT);
  const list: Case[] = [
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
      name: 'Markdown @131,072, Expand (Auto: Markdown)',
      secret: 'bench-preview-md',
      key: 'runbook.md',
      value: markdown,
      button: 'Expand value',
      selector: `${PANEL} h2`,
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
      name: 'Markdown @131,072 at the cutoff, Expand',
      secret: 'bench-preview-md-cutoff',
      key: 'audit.md',
      value: cutoffMarkdown(LIMIT),
      button: 'Expand value',
      selector: `${PANEL} ul`,
      expectText: 'Detected: Markdown',
    },
    {
      name: 'Markdown @131,072 over the cutoff, Expand',
      secret: 'bench-preview-md-over-cutoff',
      key: 'audit.md',
      value: cutoffMarkdown(LIMIT, true),
      button: 'Expand value',
      selector: `${PANEL} pre[aria-label="Raw Markdown text"]`,
      expectText: 'too many lists, quotes or brackets',
    },
    {
      name: 'Markdown @65,536, Expand',
      secret: 'bench-preview-md-64k',
      key: 'runbook.md',
      value: runbookMarkdown(65_536),
      button: 'Expand value',
      selector: `${PANEL} h2`,
      expectText: 'Detected: Markdown',
    },
    {
      name: 'Markdown @16,384, Expand',
      secret: 'bench-preview-md-16k',
      key: 'runbook.md',
      value: runbookMarkdown(16_384),
      button: 'Expand value',
      selector: `${PANEL} h2`,
      expectText: 'Detected: Markdown',
    },
  ];
  return list;
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
      return {
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
async function measureCase(context: BrowserContext, c: Case): Promise<Run[]> {
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
          const run = await timedRun(page, c);
          if (i === 0) await verify(page, c);
          if (i >= WARMUP) runs.push(run);
        }
      } catch (e) {
        // A hot reload in the middle of a run destroys its execution context.
        if (!rebuilt) throw e;
      }
      if (!rebuilt) return runs;
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

describe('preview', () => {
  let portal: PortalStack | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;

  beforeAll(async () => {
    const started = Date.now();
    portal = await startPortalStack();
    provideStack(portal.info);
    process.stdout.write(
      `\n[bench] portal ready at ${portal.info.appUrl} in ${
        Date.now() - started
      } ms\n`,
    );
    browser = await launchBrowser();
    context = await signedInContext(browser);
  }, 15 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  }, 120_000);

  it(
    'renders Markdown at the limit, the fallback above it and raw text',
    async () => {
      const all = cases();
      const secrets = new Map<string, Record<string, string>>();
      for (const c of all) {
        secrets.set(c.secret, { ...secrets.get(c.secret), [c.key]: c.value });
      }
      for (const [name, values] of secrets) {
        await createManagedSecret(name, values);
      }

      const loadBefore = loadavg()[0];
      const results = new Map<Case, Run[]>();
      for (const c of all) {
        results.set(c, await measureCase(context, c));
      }
      const loadAfter = loadavg()[0];

      const baseline = results.get(all[0])!.map(r => r.total);
      const base50 = p(baseline, 50);
      const base95 = p(baseline, 95);
      const timeRows = all.map(c => {
        const total = results.get(c)!.map(r => r.total);
        const { markers, brackets } = complexity(c.value);
        return [
          c.name,
          c.value.length.toLocaleString('en-US'),
          `${markers}/${brackets}`,
          ms(p(total, 50)),
          ms(p(total, 95)),
          (p(total, 50) / base50).toFixed(2),
          (p(total, 95) / base95).toFixed(2),
        ];
      });
      const threadRows = all.map(c => {
        const runs = results.get(c)!;
        return [
          c.name,
          ms(median(runs.map(r => r.dom))),
          longMs(median(runs.map(r => r.longestTask))),
          longMs(Math.max(...runs.map(r => r.longestTask))),
          longMs(median(runs.map(r => r.longestFrame))),
          longMs(median(runs.map(r => r.frameRender))),
        ];
      });
      const ratio = (c: Case) => {
        const total = results.get(c)!.map(r => r.total);
        return `p50 ×${(p(total, 50) / base50).toFixed(2)}, p95 ×${(
          p(total, 95) / base95
        ).toFixed(2)}`;
      };
      process.stdout.write(
        `\n${formatColumns(
          `Preview render in ${browser!.version()} (headless), ${new Date().toISOString()}, ${
            cpus().length
          } cores; ${RUNS} runs after ${WARMUP} warm-ups per case, click to first paint, ms (ratios against the baseline)`,
          [
            'case',
            'code units',
            'markers/brackets',
            'p50 ms',
            'p95 ms',
            '× p50',
            '× p95',
          ],
          timeRows,
        )}\n\n${formatColumns(
          'Main thread per run (medians, ms; longest task max over all runs)',
          [
            'case',
            'click→DOM',
            'longest task',
            'longest task max',
            'longest frame',
            'of it rendering',
          ],
          threadRows,
          [
            '',
            `Markdown@131,072 / raw@131,072: ${ratio(all[3])}`,
            `fallback@131,073 / raw@131,072: ${ratio(all[4])}`,
            'The portal is the development build of `backstage-cli repo start` (React in development mode).',
            `Load average (1 min; includes this run's portal start-up) before and after measuring: ${loadBefore.toFixed(
              2,
            )}, ${loadAfter.toFixed(2)}.`,
          ],
        )}\n`,
      );
    },
    60 * 60_000,
  );
});
