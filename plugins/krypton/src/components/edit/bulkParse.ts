import { emptyMap, validateDataKey } from '@krypton/core';
import { KryptonT } from '../../translation';

/** One problem in pasted text. It names the line and, at most, the key: never a value. */
export interface BulkIssue {
  /** 1-based line number in the pasted text. */
  line: number;
  message: string;
}

export interface BulkParseResult {
  /** Parsed keys to values, in a map without a prototype so `__proto__` is an ordinary key. */
  entries: Record<string, string>;
  /** Keys in the order they first appear. */
  keys: string[];
  issues: BulkIssue[];
}

export type BulkMode = 'merge' | 'replace';

/** What applying a paste would do to the text keys; keys only, so it can be shown. */
export interface BulkPlan {
  added: string[];
  changed: string[];
  unchanged: string[];
  /** Existing text keys absent from the paste; only in replace mode. */
  removed: string[];
  /** The text values after applying the paste. */
  result: Record<string, string>;
}

const EXPORT_PREFIX = /^export\s+/;
// Keys in an error are shortened: a wrong paste could put a value where a key belongs.
const MAX_KEY_IN_MESSAGE = 64;

const has = (map: Record<string, string>, key: string) =>
  Object.prototype.hasOwnProperty.call(map, key);

function shownKey(key: string): string {
  return key.length > MAX_KEY_IN_MESSAGE
    ? `${key.slice(0, MAX_KEY_IN_MESSAGE)}…`
    : key;
}

/**
 * Strips one pair of matching quotes. Nothing inside is unescaped and no inline `#` comment is
 * cut off: a Secret's value must arrive byte for byte, and `#`, `\n` or `\"` are ordinary
 * characters of passwords and tokens. Undefined for a value that opens a quote it never closes.
 */
function unquote(raw: string): string | undefined {
  const first = raw[0];
  if (first !== '"' && first !== "'") return raw;
  if (raw.length >= 2 && raw[raw.length - 1] === first) return raw.slice(1, -1);
  return undefined;
}

/**
 * Parses `.env`-style `KEY=value` lines. Blank lines and `#` comments are ignored, `export KEY=value`
 * is accepted, and a value may be wrapped in single or double quotes. Every line that is not
 * understood is reported rather than skipped, so a paste is never applied half-read.
 */
export function parseBulk(text: string, t: KryptonT): BulkParseResult {
  const entries = emptyMap<string>();
  const keys: string[] = [];
  const issues: BulkIssue[] = [];
  // A BOM from a copied file would otherwise become part of the first key.
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);

  lines.forEach((rawLine, index) => {
    const line = index + 1;
    const trimmed = rawLine.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const body = trimmed.replace(EXPORT_PREFIX, '');
    const eq = body.indexOf('=');
    if (eq < 0) {
      issues.push({ line, message: t('edit.bulk.expected') });
      return;
    }
    const key = body.slice(0, eq).trim();
    try {
      validateDataKey(key);
    } catch (e) {
      // The rule's own text from the core, as the API would answer it.
      const reason =
        e instanceof Error ? e.message : t('edit.validation.invalidKey');
      issues.push({
        line,
        message:
          key === ''
            ? t('edit.bulk.emptyKey')
            : t('edit.bulk.invalidKey', { key: shownKey(key), reason }),
      });
      return;
    }
    const value = unquote(body.slice(eq + 1).trim());
    if (value === undefined) {
      issues.push({
        line,
        message: t('edit.bulk.unclosedQuote', { key: shownKey(key) }),
      });
      return;
    }
    if (has(entries, key)) {
      // Which of two values the user meant is a guess; ask instead.
      issues.push({
        line,
        message: t('edit.bulk.duplicate', { key: shownKey(key) }),
      });
      return;
    }
    entries[key] = value;
    keys.push(key);
  });

  return { entries, keys, issues };
}

/**
 * What applying parsed entries to the current text values does. Merge keeps the keys the paste
 * does not mention; replace removes them.
 */
export function planBulk(
  current: Record<string, string>,
  parsed: Pick<BulkParseResult, 'entries' | 'keys'>,
  mode: BulkMode,
): BulkPlan {
  const added: string[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  const removed: string[] = [];
  const result = emptyMap<string>();

  for (const key of Object.keys(current)) {
    if (has(parsed.entries, key)) continue;
    if (mode === 'replace') removed.push(key);
    else result[key] = current[key];
  }
  for (const key of parsed.keys) {
    const value = parsed.entries[key];
    if (!has(current, key)) added.push(key);
    else if (current[key] === value) unchanged.push(key);
    else changed.push(key);
    result[key] = value;
  }
  return { added, changed, unchanged, removed, result };
}
