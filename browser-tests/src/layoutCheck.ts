import { Page } from 'playwright-core';

/**
 * What is wrong with a page's layout, read from the layout itself rather than from pixels, so
 * that a change of font or colour never fails it and a squeezed column always does:
 * - the page scrolls sideways;
 * - a box's text spills out of it (a box that clips with an ellipsis is a deliberate
 *   truncation, and a scrolling box is a deliberate scroll region);
 * - a box clips its own text without an ellipsis;
 * - a word breaks across lines ("databa / se-credent / ials"); words longer than 40 characters,
 *   and text in code, values and editors, may break, since nothing else can hold them;
 * - a form field's label or a button's text wraps, which puts it over its underline or border
 *   (a column header's sort button may wrap between words, as any heading);
 * - two pieces of text overlap.
 *
 * Hidden text (display none, visibility hidden, no size, clipped to nothing) is not laid out for
 * a reader, so it is not judged.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const LONG_WORD = 40;
    const SLACK = 1;

    const describe = (el: Element): string => {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      const role = el.getAttribute('role');
      const name = `${el.tagName.toLowerCase()}${role ? `[role=${role}]` : ''}`;
      return `${name} "${text.slice(0, 60)}"`;
    };
    const hidden = (el: Element): boolean => {
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible' || style.display === 'none')
        return true;
      for (let at: Element | null = el; at; at = at.parentElement) {
        const s = getComputedStyle(at);
        if (s.opacity === '0' || s.clip === 'rect(0px, 0px, 0px, 0px)')
          return true;
        if (at.getAttribute('aria-hidden') === 'true') return true;
      }
      const box = el.getBoundingClientRect();
      return box.width <= 1 || box.height <= 1;
    };
    /** Text that may break anywhere: code, values and editors. */
    const breaksAnywhere = (el: Element): boolean =>
      !!el.closest('pre, code, textarea, input, [data-wrap-anywhere]');

    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + SLACK)
      problems.push(
        `the page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth} px`,
      );

    // Boxes whose content spills out, reported at the innermost spilling box only.
    const all = Array.from(document.body.querySelectorAll('*'));
    const ownText = (el: Element) =>
      Array.from(el.childNodes).some(
        n => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim(),
      );
    const spilling = all.filter(el => {
      if (!(el instanceof HTMLElement) || hidden(el)) return false;
      const style = getComputedStyle(el);
      if (
        style.display.startsWith('inline') &&
        style.display !== 'inline-block'
      )
        return false;
      if (el.clientWidth === 0 || !(el.textContent ?? '').trim()) return false;
      if (el.scrollWidth <= el.clientWidth + SLACK) return false;
      if (style.overflowX === 'auto' || style.overflowX === 'scroll')
        return false;
      if (style.overflowX === 'hidden' || style.overflowX === 'clip') {
        if (style.textOverflow === 'ellipsis' || !ownText(el)) return false;
        if (breaksAnywhere(el)) return false;
        problems.push(`${describe(el)} clips its text without an ellipsis`);
        return false;
      }
      return !breaksAnywhere(el);
    });
    const spillingSet = new Set(spilling);
    for (const el of spilling) {
      const inner = Array.from(el.querySelectorAll('*')).some(c =>
        spillingSet.has(c),
      );
      if (!inner)
        problems.push(
          `${describe(el)} spills out of its box (${el.scrollWidth} px in ${
            el.clientWidth
          } px)`,
        );
    }

    // Every laid-out piece of text, by line.
    interface Piece {
      node: number;
      el: Element;
      rect: DOMRect;
    }
    const pieces: Piece[] = [];
    // Text that a box clips (an ellipsis, a scroll region) is only seen inside that box.
    const clipBox = (el: Element): DOMRect | undefined => {
      for (let at: Element | null = el; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible')
          return at.getBoundingClientRect();
      }
      return undefined;
    };
    const intersect = (a: DOMRect, b: DOMRect): DOMRect => {
      const left = Math.max(a.left, b.left);
      const top = Math.max(a.top, b.top);
      const right = Math.min(a.right, b.right);
      const bottom = Math.min(a.bottom, b.bottom);
      return new DOMRect(
        left,
        top,
        Math.max(0, right - left),
        Math.max(0, bottom - top),
      );
    };
    const walker = document.createTreeWalker(
      document.body,
      NodeFilter.SHOW_TEXT,
    );
    let index = 0;
    // Rects on one line overlap vertically, whatever their font size; a new line starts below.
    const lineCount = (rects: DOMRect[]) => {
      const sorted = rects
        .filter(r => r.width > 0 && r.height > 0)
        .sort((a, b) => a.top - b.top);
      let lines = 0;
      let bottom = -Infinity;
      for (const r of sorted) {
        if (r.top >= bottom - 2) {
          lines++;
          bottom = r.bottom;
        } else bottom = Math.max(bottom, r.bottom);
      }
      return lines;
    };
    const textRects = (el: Element) => {
      const rects: DOMRect[] = [];
      const inner = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = inner.nextNode(); t; t = inner.nextNode()) {
        if (!(t.textContent ?? '').trim() || !t.parentElement) continue;
        if (hidden(t.parentElement)) continue;
        const range = document.createRange();
        range.selectNodeContents(t);
        rects.push(...Array.from(range.getClientRects()));
      }
      return rects;
    };
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      const el = n.parentElement;
      if (!el || !text.trim() || el.closest('script, style, noscript'))
        continue;
      if (hidden(el)) continue;
      index++;
      const range = document.createRange();
      range.selectNodeContents(n);
      const clip = clipBox(el);
      for (const full of Array.from(range.getClientRects())) {
        const rect = clip ? intersect(full, clip) : full;
        if (rect.width > 1 && rect.height > 1)
          pieces.push({ node: index, el, rect });
      }
      if (breaksAnywhere(el)) continue;
      const words = /\S+/g;
      for (let m = words.exec(text); m; m = words.exec(text)) {
        if (m[0].length < 2 || m[0].length > LONG_WORD) continue;
        const word = document.createRange();
        word.setStart(n, m.index);
        word.setEnd(n, m.index + m[0].length);
        if (lineCount(Array.from(word.getClientRects())) > 1)
          problems.push(
            `the word "${m[0]}" breaks across lines in ${describe(el)}`,
          );
      }
    }

    // Labels and buttons that wrap sit over their field's underline or their own border.
    const oneLine = document.body.querySelectorAll(
      'label, button, [role=button], [role=tab]',
    );
    for (const el of Array.from(oneLine)) {
      if (hidden(el)) continue;
      // A column header may wrap between its words, like any heading.
      if (el.querySelector('input, textarea, select') || el.closest('th'))
        continue;
      if (lineCount(textRects(el)) > 1)
        problems.push(`${describe(el)} wraps onto a second line`);
    }

    for (let i = 0; i < pieces.length; i++) {
      for (let j = i + 1; j < pieces.length; j++) {
        const a = pieces[i];
        const b = pieces[j];
        if (a.node === b.node) continue;
        const w =
          Math.min(a.rect.right, b.rect.right) -
          Math.max(a.rect.left, b.rect.left);
        const h =
          Math.min(a.rect.bottom, b.rect.bottom) -
          Math.max(a.rect.top, b.rect.top);
        // Line boxes of adjacent lines touch; real overlap covers a good part of a glyph.
        if (w > 2 && h > Math.min(a.rect.height, b.rect.height) / 3)
          problems.push(
            `text overlaps: ${describe(a.el)} and ${describe(b.el)}`,
          );
      }
    }
    return Array.from(new Set(problems));
  });
}

/**
 * layoutProblems of a page whose window was just resized. MUI measures some parts on a debounced
 * resize (the tabs' scroll buttons, after 166 ms), so a first look can catch them half-way: ask
 * again while problems remain, for up to five seconds, and report the last answer.
 */
export async function layoutProblemsAfterResize(page: Page): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const problems = await layoutProblems(page);
    if (problems.length === 0 || Date.now() > deadline) return problems;
    await page.waitForTimeout(250);
  }
}
