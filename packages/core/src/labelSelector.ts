import { KryptonError } from './errors';

/**
 * One term of a Kubernetes label selector.
 *
 * @public
 */
export type LabelRequirement =
  | { key: string; op: 'exists' | 'notExists' }
  | { key: string; op: 'equals' | 'notEquals'; value: string }
  | { key: string; op: 'in' | 'notIn'; values: string[] };

/** Longer selectors are refused before any scanning, whatever they hold. */
const MAX_SELECTOR_LENGTH = 1024;

const INVALID_SELECTOR =
  'Invalid label selector: use terms such as app=payments, tier!=cache or env in (prod,staging), separated by commas.';

const invalid = () => new KryptonError('invalid_request', INVALID_SELECTOR);

/*
 * A hand-written scanner and a recursive-descent parser with one token of lookahead, after
 * Kubernetes' own (k8s.io/apimachinery/pkg/labels/selector.go). A backtracking regex over the
 * whole selector can fail in exponentially many ways (`a in ( , , … !)` froze the backend for
 * 50 s); here every character is read once by the scanner, and every parser step consumes a
 * token, so the work is linear in the length.
 */

/** The characters that end an identifier and are tokens of their own. */
type Special = '=' | '!' | '(' | ')' | ',' | '<' | '>';

type TokenKind = 'identifier' | Special | '==' | '!=' | 'end';

interface Token {
  kind: TokenKind;
  /** The identifier's text; empty for the other kinds. */
  text: string;
}

/** Kubernetes' blanks: other Unicode spaces are identifier characters there, and then invalid. */
const isBlank = (ch: string) =>
  ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';

const isSpecial = (ch: string): ch is Special =>
  ch === '=' ||
  ch === '!' ||
  ch === '(' ||
  ch === ')' ||
  ch === ',' ||
  ch === '<' ||
  ch === '>';

function tokenize(selector: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < selector.length) {
    const ch = selector[i];
    if (isBlank(ch)) {
      i++;
    } else if (isSpecial(ch)) {
      // The longest operator wins, as in Kubernetes: "!=" and "==" are never "!" or "=" twice.
      const pair = selector.slice(i, i + 2);
      if (pair === '!=' || pair === '==') {
        tokens.push({ kind: pair, text: '' });
        i += 2;
      } else {
        tokens.push({ kind: ch, text: '' });
        i++;
      }
    } else {
      const start = i;
      while (
        i < selector.length &&
        !isBlank(selector[i]) &&
        !isSpecial(selector[i])
      ) {
        i++;
      }
      tokens.push({ kind: 'identifier', text: selector.slice(start, i) });
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isAlphanumeric = (c: number) => isDigit(c) || isLower(c) || isUpper(c);
const isLowerAlphanumeric = (c: number) => isDigit(c) || isLower(c);

/**
 * Whether text is `first (inner* last)?`: an alphanumeric at both ends and the inner class
 * between, in one pass.
 */
function isDelimitedRun(
  text: string,
  edge: (c: number) => boolean,
  inner: (c: number) => boolean,
): boolean {
  if (text.length === 0) return false;
  const last = text.length - 1;
  if (!edge(text.charCodeAt(0)) || !edge(text.charCodeAt(last))) return false;
  for (let i = 1; i < last; i++) {
    if (!inner(text.charCodeAt(i))) return false;
  }
  return true;
}

/** The name part of a qualified name, and every non-empty label value: `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, at most 63. */
function isQualifiedNamePart(text: string): boolean {
  return (
    text.length <= 63 &&
    isDelimitedRun(
      text,
      isAlphanumeric,
      c => isAlphanumeric(c) || c === 0x2d || c === 0x5f || c === 0x2e,
    )
  );
}

/** IsDNS1123Subdomain: dot-separated lowercase labels, each alphanumeric at both ends, at most 253 in all. */
function isDnsSubdomain(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  return text
    .split('.')
    .every(label =>
      isDelimitedRun(
        label,
        isLowerAlphanumeric,
        c => isLowerAlphanumeric(c) || c === 0x2d,
      ),
    );
}

/**
 * Whether text is a label key as Kubernetes' IsQualifiedName takes it: `[prefix/]name`, with a
 * DNS subdomain as the prefix.
 *
 * @public
 */
export function isLabelKey(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash === -1) return isQualifiedNamePart(text);
  if (text.indexOf('/', slash + 1) !== -1) return false;
  return (
    isDnsSubdomain(text.slice(0, slash)) &&
    isQualifiedNamePart(text.slice(slash + 1))
  );
}

/** IsValidLabelValue: empty, or a qualified name's name part. */
function isLabelValue(text: string): boolean {
  return text === '' || isQualifiedNamePart(text);
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  peek(): Token {
    return this.tokens[this.position];
  }

  /** The end token is never passed: every caller stops there. */
  next(): Token {
    const token = this.tokens[this.position];
    if (token.kind !== 'end') this.position++;
    return token;
  }

  selector(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      // An empty selector selects everything in Kubernetes; here it is refused, as before, and
      // so is an empty term after a comma.
      const start = this.peek().kind;
      if (start !== 'identifier' && start !== '!') throw invalid();
      requirements.push(this.requirement());
      const after = this.next().kind;
      if (after === 'end') return requirements;
      if (after !== ',') throw invalid();
    }
  }

  private key(): string {
    const token = this.next();
    if (token.kind !== 'identifier' || !isLabelKey(token.text)) {
      throw invalid();
    }
    return token.text;
  }

  private requirement(): LabelRequirement {
    if (this.peek().kind === '!') {
      this.next();
      // Whatever follows must be a comma or the end: selector() checks it.
      return { key: this.key(), op: 'notExists' };
    }
    const key = this.key();
    const following = this.peek();
    if (following.kind === 'end' || following.kind === ',') {
      return { key, op: 'exists' };
    }
    const operator = this.next();
    switch (operator.kind) {
      case '=':
      case '==':
        return { key, op: 'equals', value: this.exactValue() };
      case '!=':
        return { key, op: 'notEquals', value: this.exactValue() };
      case 'identifier':
        // "in" and "notin" are operators only here; as keys and values they are plain names.
        if (operator.text === 'in') {
          return { key, op: 'in', values: this.valueSet() };
        }
        if (operator.text === 'notin') {
          return { key, op: 'notIn', values: this.valueSet() };
        }
        throw invalid();
      default:
        // Including Kubernetes' ">" and "<", which Krypton does not offer.
        throw invalid();
    }
  }

  private exactValue(): string {
    const following = this.peek().kind;
    if (following === 'end' || following === ',') return '';
    const token = this.next();
    if (token.kind !== 'identifier' || !isLabelValue(token.text)) {
      throw invalid();
    }
    return token.text;
  }

  private valueSet(): string[] {
    if (this.next().kind !== '(') throw invalid();
    const first = this.peek().kind;
    if (first === ')') {
      // Kubernetes reads "()" as the set of the empty value.
      this.next();
      return [''];
    }
    if (first !== 'identifier' && first !== ',') throw invalid();
    const values = this.valueList();
    if (this.next().kind !== ')') throw invalid();
    return values;
  }

  /**
   * Kubernetes' parseIdentifiersList, step for step, so that the same lists are accepted: empty
   * values come from "(,", ",)" and ",,", and it refuses some runs of commas ("(,,)", "(a,,)")
   * while accepting longer ones. Values are kept once each, in their first order, as in a set.
   */
  private valueList(): string[] {
    const values: string[] = [];
    const seen = new Set<string>();
    const add = (value: string) => {
      if (!isLabelValue(value)) throw invalid();
      if (seen.has(value)) return;
      seen.add(value);
      values.push(value);
    };
    for (;;) {
      const token = this.next();
      if (token.kind === 'identifier') {
        add(token.text);
        const following = this.peek().kind;
        if (following === ')') return values;
        if (following !== ',') throw invalid();
      } else if (token.kind === ',') {
        if (values.length === 0) add('');
        const following = this.peek().kind;
        if (following === ')') {
          add('');
          return values;
        }
        if (following === ',') {
          this.next();
          add('');
        }
      } else {
        throw invalid();
      }
    }
  }
}

/**
 * The terms of a Kubernetes label selector, in their order: `key`, `!key`, `key=value` (or
 * `==`), `key!=value`, `key in (a,b)` and `key notin (a,b)`, with blanks around operators and
 * commas as kubectl allows. An empty selector, one over 1,024 characters, and anything the API
 * server would refuse is a 400 here rather than an opaque refusal upstream.
 *
 * @public
 */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  if (selector.length > MAX_SELECTOR_LENGTH) throw invalid();
  return new Parser(tokenize(selector)).selector();
}

function formatRequirement(requirement: LabelRequirement): string {
  switch (requirement.op) {
    case 'exists':
      return requirement.key;
    case 'notExists':
      return `!${requirement.key}`;
    case 'equals':
      return `${requirement.key}=${requirement.value}`;
    case 'notEquals':
      return `${requirement.key}!=${requirement.value}`;
    default: {
      // Each value once: Kubernetes refuses some repeated empty values, such as "(a,,)".
      const values = [...new Set(requirement.values)].join(',');
      const op = requirement.op === 'in' ? 'in' : 'notin';
      return `${requirement.key} ${op} (${values})`;
    }
  }
}

/**
 * The canonical text of parsed requirements: no blanks but the ones around `in` and `notin`,
 * `=` for equality, and each set value once. Kubernetes reads it as the same selector.
 *
 * @public
 */
export function formatLabelSelector(
  requirements: readonly LabelRequirement[],
): string {
  return requirements.map(formatRequirement).join(',');
}
