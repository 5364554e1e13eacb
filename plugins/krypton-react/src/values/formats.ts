import formatXmlText from 'xml-formatter';
import { isMap, parseAllDocuments } from 'yaml';
import type { ValuesT } from './texts';
import { mayBeYamlMapping } from './yamlMapping';

/**
 * What a text value can be previewed as.
 *
 * @public
 */
export type PreviewFormat =
  | 'markdown'
  | 'json'
  | 'yaml'
  | 'xml'
  | 'pem'
  | 'text';

/**
 * A chosen format, or auto: detect it from the value.
 *
 * @public
 */
export type PreviewMode = 'auto' | PreviewFormat;

/** A format's name, as the preview's buttons and notes say it. */
export const formatLabel = (format: PreviewFormat, t: ValuesT): string =>
  t(`values.formats.${format}`);

export type FormatResult =
  | {
      ok: true;
      text: string;
      /** JSON only: some number literal cannot be shown exactly after parsing. */
      inexactNumbers?: boolean;
    }
  | { ok: false };

/** The significant digits of a JSON number literal, without sign, point, exponent and zero padding. */
function significantDigits(literal: string): string {
  const mantissa = literal.replace(/^-/, '').split(/[eE]/)[0].replace('.', '');
  // Trimmed by hand: /0+$/ is retried from every zero of a run that does not end the text, which
  // is quadratic, and a fraction such as 0.1000…0001 may have 131,072 digits (seconds per value).
  let start = 0;
  while (start < mantissa.length && mantissa[start] === '0') start++;
  let end = mantissa.length;
  while (end > start && mantissa[end - 1] === '0') end--;
  return mantissa.slice(start, end);
}

/**
 * JSON.parse reads every number as a double, so an account ID such as 12345678901234567890 would be
 * pretty-printed rounded. Only called on text that JSON.parse accepted, so the string pattern is
 * exact and the scan is linear.
 */
function hasInexactNumber(json: string): boolean {
  const TOKEN = /"(?:[^"\\]|\\.)*"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
  for (const match of json.matchAll(TOKEN)) {
    const literal = match[1];
    if (literal === undefined) continue;
    const parsed = Number(literal);
    if (
      !Number.isFinite(parsed) ||
      significantDigits(literal) !== significantDigits(String(parsed))
    ) {
      return true;
    }
  }
  return false;
}

export function formatJson(text: string): FormatResult {
  try {
    const parsed: unknown = JSON.parse(text);
    return {
      ok: true,
      text: JSON.stringify(parsed, null, 2),
      inexactNumbers: hasInexactNumber(text),
    };
  } catch {
    return { ok: false };
  }
}

function parseYaml(text: string) {
  // The failsafe schema keeps every scalar a string, so numbers, booleans and dates keep their
  // exact spelling (no rounded IDs, no "yes" turned into true). Parsing a Document and printing it
  // never expands aliases, so an alias bomb costs nothing, and comments are kept. Errors are only
  // counted: making each one "pretty" (its line and an excerpt) is quadratic in their number, 20 s
  // for 131,072 double quotes.
  return parseAllDocuments(text, { schema: 'failsafe', prettyErrors: false });
}

export function formatYaml(text: string): FormatResult {
  try {
    const docs = parseYaml(text);
    if (docs.some(doc => doc.errors.length > 0)) return { ok: false };
    // lineWidth 0: folding long scalars would make the preview look different from the value.
    return {
      ok: true,
      text:
        docs.length === 0
          ? text
          : docs.map(doc => doc.toString({ lineWidth: 0 })).join(''),
    };
  } catch {
    return { ok: false };
  }
}

export function formatXml(text: string): FormatResult {
  try {
    // strictMode: mismatched or unclosed tags are reported rather than silently "repaired".
    // xml-formatter does not resolve entities or fetch DTDs, so formatting loads nothing.
    return {
      ok: true,
      text: formatXmlText(text, {
        indentation: '  ',
        collapseContent: true,
        lineSeparator: '\n',
        strictMode: true,
        throwOnFailure: true,
      }),
    };
  } catch {
    return { ok: false };
  }
}

const PEM_BEGIN = /^-----BEGIN [A-Z0-9][A-Z0-9 ]*-----[ \t]*$/m;

// Every quantifier that can repeat is bounded, so a hostile value cannot make detection quadratic.
const MARKDOWN_HINTS: readonly RegExp[] = [
  /^ {0,3}#{1,6}[ \t]+\S/m, // ATX heading
  /^ {0,3}(?:`{3}|~{3})/m, // fenced code block
  /\[[^\]\n]{1,200}\]\([^)\n]{1,500}\)/, // inline link or image
  /^ {0,3}>[ \t]/m, // blockquote
  /^ {0,3}[-*+][ \t]+\S/m, // bullet list
  /^ {0,3}\d{1,9}[.)][ \t]+\S/m, // ordered list
  /\*\*[^*\n]{1,200}\*\*|__[^_\n]{1,200}__/, // strong emphasis
  /<(?:https?:\/\/|mailto:)[^>\s]{1,500}>/, // autolink
];

export function looksLikeMarkdown(text: string): boolean {
  return MARKDOWN_HINTS.some(hint => hint.test(text));
}

function looksLikeYamlMapping(text: string): boolean {
  if (!mayBeYamlMapping(text)) return false;
  try {
    const docs = parseYaml(text);
    // Only mappings: any single line of prose parses as a YAML scalar.
    return (
      docs.length > 0 &&
      docs.every(doc => doc.errors.length === 0 && isMap(doc.contents))
    );
  } catch {
    return false;
  }
}

/**
 * The Auto choice. The structured formats win only when they parse, so Auto never shows a parse
 * failure note; YAML is tried before Markdown because a manifest's "- name:" lines look like a
 * Markdown list.
 */
export function detectFormat(text: string): PreviewFormat {
  if (PEM_BEGIN.test(text)) return 'pem';
  const trimmed = text.trim();
  if (/^[[{]/.test(trimmed) && formatJson(trimmed).ok) return 'json';
  if (trimmed.startsWith('<') && trimmed.endsWith('>') && formatXml(trimmed).ok)
    return 'xml';
  if (looksLikeYamlMapping(text)) return 'yaml';
  if (looksLikeMarkdown(text)) return 'markdown';
  return 'text';
}
