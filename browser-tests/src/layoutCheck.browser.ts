import { Browser, Page } from 'playwright-core';
import { layoutProblems } from './layoutCheck';
import { launchBrowser } from './support';

/** The layout check itself, on pages made to break each rule once, and on one that breaks none. */
describe('layoutProblems', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const check = async (body: string) => {
    await page.setContent(
      `<html><body style="margin:0;font:16px sans-serif">${body}</body></html>`,
    );
    return layoutProblems(page);
  };

  it('finds nothing wrong with a page that holds', async () => {
    expect(
      await check(`
        <h1>Secrets</h1>
        <p style="width:300px">A paragraph that wraps between its words, as text should.</p>
        <div style="display:flex;width:300px"><div style="width:120px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">database-credentials-of-the-payments-team</div><span>Version 1</span></div>
        <div style="width:120px;overflow:auto;white-space:nowrap">a scroll region may be wider than its box</div>
        <pre style="width:100px;white-space:pre-wrap;word-break:break-all">QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=</pre>
        <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">hidden label</span>
        <button>Save</button>`),
    ).toEqual([]);
  });

  it('finds a page that scrolls sideways and a box whose content spills out', async () => {
    const problems = await check(
      `<div style="width:200px"><div style="width:900px">too wide</div></div>`,
    );
    expect(problems).toContain(
      'the page scrolls sideways: 900 px wide in 800 px',
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^div "too wide" spills out of its box/),
    );
  });

  it('finds text clipped without an ellipsis', async () => {
    expect(
      await check(
        `<div style="width:80px;overflow:hidden;white-space:nowrap">database-credentials</div>`,
      ),
    ).toEqual([
      'div "database-credentials" clips its text without an ellipsis',
    ]);
  });

  it('finds a word broken across lines, but not in code or in a word too long for any line', async () => {
    const problems = await check(`
      <div style="width:60px;overflow-wrap:anywhere">database-credentials</div>
      <code style="display:block;width:60px;overflow-wrap:anywhere">database-credentials</code>
      <div style="width:60px;overflow-wrap:anywhere">${'x'.repeat(45)}</div>`);
    expect(problems).toEqual([
      'the word "database-credentials" breaks across lines in div "database-credentials"',
    ]);
  });

  it('finds a label or a button that wraps', async () => {
    const problems = await check(`
      <label style="display:block;width:110px">Namespace to rewrite</label>
      <button style="width:80px;padding:0">Rewrite storage</button>`);
    expect(problems).toEqual([
      'label "Namespace to rewrite" wraps onto a second line',
      'button "Rewrite storage" wraps onto a second line',
    ]);
  });

  it('finds text over other text', async () => {
    const problems = await check(`
      <div style="position:relative;height:40px">
        <span style="position:absolute;left:0;top:0">Version</span>
        <span style="position:absolute;left:20px;top:4px">Last change</span>
      </div>`);
    expect(problems).toEqual([
      'text overlaps: span "Version" and span "Last change"',
    ]);
  });
});
