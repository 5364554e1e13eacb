/**
 * A faster, equivalent style cascade for jsdom's getComputedStyle.
 *
 * jsdom computes a style by testing every rule of every stylesheet (its defaults, about 110
 * rules, and MUI's JSS sheets, 450 to 800 rules in the page and form suites) against the element
 * and, for inherited properties, against each ancestor; any change to the document clears what
 * it computed. Each test goes through the selector engine, whose cache (1024 entries: one per
 * selector, one more per matching one) is smaller than a full pass over those rules needs. testing-library's role
 * and name queries, user-event's pointer-events check and MUI's TextareaAutosize all call
 * getComputedStyle: it was about half of the time of the edit form and page suites (profiled).
 *
 * Almost every rule names a tag or classes on its subject (`td`, `.MuiButton-root:hover`), and
 * an element without them cannot match it. This pre-check answers "no match" for such elements
 * without the engine, and hands every other case to the engine unchanged: a selector with
 * escapes, strings or namespaces is never pre-checked, only the subject's simple selectors
 * outside parentheses and brackets count, and a selector list is ruled out only when none of its
 * branches can match. fastCascade.test.tsx holds it to the engine's answers.
 */

/** What the subject of one branch of a selector list must be: its tag and its classes. */
interface Subject {
  tag?: string;
  classes: string[];
}

/** Per selector: each branch's subject, or null when the selector is not pre-checked. */
const subjects = new Map<string, Subject[] | null>();

/**
 * Splits a selector list into branches and keeps, for each, the simple selectors of its subject
 * (the last compound) that stand outside parentheses: those the element itself must match.
 * Null for what this reading cannot be sure of: escapes, strings, namespaces, or a branch whose
 * subject names neither a tag nor a class (`*`, `:hover`, `[open]`).
 */
function parseSubjects(selector: string): Subject[] | null {
  if (/[\\'"|]/.test(selector)) return null;
  const branches: string[] = [];
  let depth = 0;
  let start = 0;
  let subjectStart = 0;
  const subjectStarts: number[] = [];
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && c === ',') {
      branches.push(selector.slice(start, i));
      subjectStarts.push(subjectStart - start);
      start = i + 1;
      subjectStart = i + 1;
    } else if (depth === 0 && /[\s>+~]/.test(c)) subjectStart = i + 1;
    if (depth < 0) return null;
  }
  if (depth !== 0) return null;
  branches.push(selector.slice(start));
  subjectStarts.push(subjectStart - start);
  const result: Subject[] = [];
  for (let b = 0; b < branches.length; b++) {
    // A trailing blank would leave an empty subject: the subject is the last non-empty compound.
    const branch = branches[b].trimEnd();
    let compound = branch.slice(subjectStarts[b]);
    if (compound === '') compound = branch.split(/[\s>+~]+/).pop() ?? '';
    let outside = '';
    let level = 0;
    for (const c of compound) {
      if (c === '(' || c === '[') level++;
      if (level === 0) outside += c;
      if (c === ')' || c === ']') level--;
    }
    const tag = /^[a-zA-Z][\w-]*/.exec(outside)?.[0];
    const classes = Array.from(outside.matchAll(/\.([\w-]+)/g), m => m[1]);
    if (!tag && classes.length === 0) return null;
    result.push({ tag: tag?.toLowerCase(), classes });
  }
  return result;
}

/** What the pre-check reads of an element: jsdom's element implementations and DOM elements. */
export interface ElementImpl {
  localName: string;
  getAttributeNS(namespace: null, name: string): string | null;
}

interface DomSelector {
  check(
    selector: string,
    element: ElementImpl,
    options?: object,
  ): { match: boolean; pseudoElement: string | null };
}

/** The element's classes by its class attribute, reused while the attribute stays the same. */
const classSets = new WeakMap<
  ElementImpl,
  { attr: string; set: Set<string> }
>();

function classesOf(element: ElementImpl): Set<string> {
  const attr = element.getAttributeNS(null, 'class') ?? '';
  const cached = classSets.get(element);
  if (cached && cached.attr === attr) return cached.set;
  const set = new Set(attr.split(/[ \t\n\f\r]+/).filter(Boolean));
  classSets.set(element, { attr, set });
  return set;
}

/**
 * Whether the element has the subject's tag and classes. The tag is compared without case: HTML
 * tags match so, and for other elements equal-ignoring-case is still necessary.
 */
function couldMatch(subject: Subject, element: ElementImpl): boolean {
  if (subject.tag && subject.tag !== element.localName.toLowerCase()) {
    return false;
  }
  if (subject.classes.length === 0) return true;
  const classes = classesOf(element);
  return subject.classes.every(c => classes.has(c));
}

/** Whether no element like this one can match the selector, by its subjects' tags and classes. */
export function cannotMatch(selector: string, element: ElementImpl): boolean {
  let branches = subjects.get(selector);
  if (branches === undefined) {
    branches = parseSubjects(selector);
    subjects.set(selector, branches);
  }
  return branches !== null && !branches.some(s => couldMatch(s, element));
}

/** Installs the pre-check on the test document's selector engine, when jsdom exposes it. */
export function speedUpStyleCascade(doc: Document) {
  // Class selectors are case-insensitive in quirks mode; the pre-check compares exactly.
  if (doc.compatMode !== 'CSS1Compat') return;
  const implSymbol = Object.getOwnPropertySymbols(doc).find(
    symbol => symbol.description === 'impl',
  );
  const impl = implSymbol
    ? (doc as unknown as Record<symbol, { _domSelector?: DomSelector }>)[
        implSymbol
      ]
    : undefined;
  const engine = impl?._domSelector;
  if (!engine || typeof engine.check !== 'function') return;
  const check = engine.check.bind(engine);
  engine.check = (selector, element, options) => {
    if (cannotMatch(selector, element)) {
      return { match: false, pseudoElement: null };
    }
    return check(selector, element, options);
  };
}
