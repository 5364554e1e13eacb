/** A link in a Markdown text: the 1-based line of its destination and the destination as written. */
export interface MarkdownLink {
  line: number;
  target: string;
}

// An opening or closing code fence, also inside list items and block quotes.
const FENCE = /^[ \t]*(?:>[ \t]*)*(`{3,}|~{3,})(.*)$/;

/**
 * The text with the lines of fenced code blocks (fences included) emptied, so that line numbers
 * still hold.
 */
function withoutFencedCode(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split(/\r?\n/).map(line => {
    const match = FENCE.exec(line);
    if (fence === undefined) {
      // A backtick fence's info string cannot contain a backtick (that is inline code).
      if (match && !(match[1][0] === '`' && match[2].includes('`'))) {
        fence = match[1];
      }
      return fence === undefined ? line : '';
    }
    if (
      match &&
      match[1][0] === fence[0] &&
      match[1].length >= fence.length &&
      match[2].trim() === ''
    ) {
      fence = undefined;
    }
    return '';
  });
}

/**
 * The text with every code span (a run of n backticks up to the next run of exactly n in the
 * same paragraph) replaced by spaces, newlines kept. Unmatched backticks stay as they are.
 * Linear: each run's next run of the same length is found in one backward pass.
 */
function withoutCodeSpans(text: string): string {
  const runs: { start: number; length: number; paragraph: number }[] = [];
  let paragraph = 0;
  for (let i = 0; i < text.length; ) {
    if (text[i] === '\n') {
      // A blank line ends the paragraph, and with it every code span.
      let j = i + 1;
      while (text[j] === ' ' || text[j] === '\t') j++;
      if (j >= text.length || text[j] === '\n') paragraph++;
    }
    if (text[i] !== '`') {
      i++;
      continue;
    }
    const start = i;
    while (text[i] === '`') i++;
    runs.push({ start, length: i - start, paragraph });
  }
  const next = new Array<number>(runs.length).fill(-1);
  const latest = new Map<string, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    const key = `${runs[r].paragraph}:${runs[r].length}`;
    next[r] = latest.get(key) ?? -1;
    latest.set(key, r);
  }
  let out = '';
  let copied = 0;
  for (let r = 0; r < runs.length; ) {
    const close = next[r];
    if (close < 0) {
      r++;
      continue;
    }
    const end = runs[close].start + runs[close].length;
    out += text.slice(copied, runs[r].start);
    out += text.slice(runs[r].start, end).replace(/[^\n]/g, ' ');
    copied = end;
    r = close + 1;
  }
  return out + text.slice(copied);
}

/**
 * The destination of a link whose `](` ends just before `from` and the index where it starts, or
 * undefined if this is no link.
 */
function destinationAt(
  text: string,
  from: number,
): { target: string; start: number } | undefined {
  const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
  let i = from;
  while (isSpace(text[i])) i++;
  let start = i;
  let target: string;
  if (text[i] === '<') {
    const end = text.indexOf('>', i);
    if (end < 0 || text.slice(i, end).includes('\n')) return undefined;
    start = i + 1;
    target = text.slice(start, end);
    i = end + 1;
  } else {
    let depth = 0;
    for (; i < text.length && !isSpace(text[i]); i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '(') depth++;
      else if (text[i] === ')' && depth-- === 0) break;
    }
    target = text.slice(start, i);
  }
  while (isSpace(text[i])) i++;
  // An optional title: "title", 'title' or (title).
  if (
    text[i] === '"' ||
    text[i] === "'" ||
    (text[i] === '(' && isSpace(text[i - 1]))
  ) {
    const end = text.indexOf(text[i] === '(' ? ')' : text[i], i + 1);
    if (end < 0) return undefined;
    i = end + 1;
    while (isSpace(text[i])) i++;
  }
  return text[i] === ')' ? { target, start } : undefined;
}

/**
 * Every inline link and image destination (`[text](dest)`, `![alt](dest "title")`,
 * `[text](<dest>)`) outside fenced code blocks and code spans.
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const text = withoutCodeSpans(withoutFencedCode(markdown).join('\n'));
  const links: MarkdownLink[] = [];
  let line = 1;
  let counted = 0;
  for (let at = text.indexOf(']('); at >= 0; at = text.indexOf('](', at + 2)) {
    if (text[at - 1] === '\\') continue;
    const link = destinationAt(text, at + 2);
    if (link === undefined) continue;
    for (; counted < link.start; counted++) {
      if (text[counted] === '\n') line++;
    }
    links.push({ line, target: link.target });
  }
  return links;
}

/** Whether a link destination has a scheme (`https:`, `mailto:`) or is protocol-relative. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * GitHub's anchor for a heading's text: lowercase; letters, marks, digits, `_`, `-` and spaces
 * kept, everything else dropped; each space a `-`.
 */
export function slugify(heading: string): string {
  return heading
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HTML_ANCHOR = /<[a-z][^>]*?\s(?:id|name)=["']([^"']+)["']/gi;

/**
 * The anchors a Markdown text has on GitHub: the slug of every ATX heading outside fenced code
 * (a repeated slug gets `-1`, `-2`, …) and every HTML `id` or `name`.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFencedCode(markdown)) {
    for (const match of line.matchAll(HTML_ANCHOR)) anchors.add(match[1]);
    const heading = ATX_HEADING.exec(line);
    if (!heading) continue;
    const base = slugify(heading[1] ?? '');
    let slug = base;
    while (seen.has(slug)) {
      const count = seen.get(base)! + 1;
      seen.set(base, count);
      slug = `${base}-${count}`;
    }
    seen.set(slug, 0);
    anchors.add(slug);
  }
  return anchors;
}

/** The files an mkdocs `nav` names (strings, at any depth), URLs left out. */
export function navFiles(nav: unknown): string[] {
  if (typeof nav === 'string') return isExternal(nav) ? [] : [nav];
  if (Array.isArray(nav)) return nav.flatMap(navFiles);
  if (nav && typeof nav === 'object')
    return Object.values(nav).flatMap(navFiles);
  return [];
}
