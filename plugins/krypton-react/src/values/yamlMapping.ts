/**
 * Whether a text can be a stream of YAML mappings, judged in one pass over its lines from where
 * each document's root starts: Auto detection parses only such text as YAML. The YAML parser
 * costs about 1 s for 131,072 code units of some shapes (unclosed `![`, runs of `"` or `! `), and
 * 120 ms for a Markdown list; neither can be a mapping, and this says so in a few milliseconds.
 *
 * It errs only towards yes: every text whose documents all parse as mappings without errors passes
 * (the tests check that against the parser). A root is a mapping only if its first line
 * - holds the `:` of an implicit key (`key: value`, `"key": value`, `&anchor key:`), which YAML
 *   requires within 1,024 characters of the key's start, properties included;
 * - or, after its properties (`!tag`, `&anchor`), opens a flow mapping `{` or an explicit key `?`;
 * - or holds properties alone, and the root's next line is one of these.
 */
export function mayBeYamlMapping(text: string): boolean {
  let lookingForRoot = true;
  let afterProperties = false;
  let roots = 0;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let line = text.slice(start, end);
    start = end + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);

    // A document marker at the start of a line ends a document anywhere, even inside a scalar.
    const marker = /^(?:---|\.\.\.)(?=[ \t]|$)/.exec(line);
    if (marker) {
      lookingForRoot = true;
      afterProperties = false;
      // Content may follow "---" on the same line.
      if (line.startsWith('...')) continue;
      line = line.slice(3);
    } else if (!lookingForRoot) {
      continue;
    }

    const content = line.replace(/^[ \t]+/, '');
    if (content === '' || content.startsWith('#')) continue;
    // A directive (%YAML, %TAG) before a document's start.
    if (!marker && !afterProperties && line.startsWith('%')) continue;
    const root = rootLine(content);
    if (root === 'no') return false;
    if (root === 'properties') {
      afterProperties = true;
      continue;
    }
    roots++;
    lookingForRoot = false;
    afterProperties = false;
  }
  // Properties with nothing after them tag an empty scalar, not a mapping.
  return roots > 0 && !afterProperties;
}

/** YAML's limit on the distance from an implicit key's start to its `:`. */
const IMPLICIT_KEY_MAX = 1024;

/** What the first line of a document's root, without its indentation, can begin. */
function rootLine(content: string): 'mapping' | 'properties' | 'no' {
  if (hasImplicitKey(content)) return 'mapping';
  // Node properties: a tag (!, !!map, !local, !<uri>) or an anchor (&name), each one word.
  let at = 0;
  while (content[at] === '!' || content[at] === '&') {
    while (at < content.length && content[at] !== ' ' && content[at] !== '\t')
      at++;
    while (content[at] === ' ' || content[at] === '\t') at++;
  }
  const rest = content.slice(at);
  if (rest === '' || rest.startsWith('#')) return 'properties';
  if (rest.startsWith('{') || /^\?(?:[ \t]|$)/.test(rest)) return 'mapping';
  return 'no';
}

/**
 * A `:` that can end an implicit key: followed by a space, a tab or the end of the line, or right
 * after a quoted or flow key (`"a":1`, as JSON writes it).
 */
function hasImplicitKey(content: string): boolean {
  const limit = Math.min(content.length, IMPLICIT_KEY_MAX + 1);
  for (let i = content.indexOf(':'); i !== -1 && i < limit; ) {
    const next = content[i + 1];
    if (next === undefined || next === ' ' || next === '\t') return true;
    if (i > 0 && '"\']}'.includes(content[i - 1])) return true;
    i = content.indexOf(':', i + 1);
  }
  return false;
}
