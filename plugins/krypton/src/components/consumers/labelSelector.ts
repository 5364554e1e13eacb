import { validateLabelSelector } from '@krypton/plugin-krypton-common';

/** One term of a Kubernetes label selector. */
export type LabelRequirement =
  | { key: string; op: 'exists' | 'notExists' }
  | { key: string; op: 'equals' | 'notEquals'; value: string }
  | { key: string; op: 'in' | 'notIn'; values: string[] };

export type Labels = Readonly<Record<string, string>>;

/** Splits on the commas between terms, not the ones inside `in (a,b)`. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else current += ch;
  }
  terms.push(current.trim());
  return terms;
}

const SET_TERM = /^(\S+)\s+(in|notin)\s+\((.*)\)$/;
const EQUALITY_TERM = /^([^=!\s]+)\s*(==|!=|=)\s*(.*)$/;

function parseTerm(term: string): LabelRequirement {
  const set = SET_TERM.exec(term);
  if (set) {
    return {
      key: set[1],
      op: set[2] === 'in' ? 'in' : 'notIn',
      values: set[3].split(',').map(v => v.trim()),
    };
  }
  const equality = EQUALITY_TERM.exec(term);
  if (equality) {
    return {
      key: equality[1],
      op: equality[2] === '!=' ? 'notEquals' : 'equals',
      value: equality[3].trim(),
    };
  }
  return term.startsWith('!')
    ? { key: term.slice(1), op: 'notExists' }
    : { key: term, op: 'exists' };
}

/**
 * The terms of a selector in the syntax kubectl and the Backstage Kubernetes plugin accept, or
 * undefined when the API server would reject it: such a selector selects nothing there, so it
 * must not select anything here either. The syntax check is the backend's own validator, so the
 * two never disagree on what a selector is.
 */
export function parseLabelSelector(
  selector: string,
): LabelRequirement[] | undefined {
  let normalized: string;
  try {
    normalized = validateLabelSelector(selector);
  } catch {
    return undefined;
  }
  return splitTerms(normalized).map(parseTerm);
}

/**
 * Kubernetes semantics: every term must hold, and the negative forms (`!=`, `notin`) also hold
 * for objects without the label at all.
 */
export function matchesRequirements(
  requirements: readonly LabelRequirement[],
  labels: Labels,
): boolean {
  return requirements.every(req => {
    const has = Object.prototype.hasOwnProperty.call(labels, req.key);
    const value = has ? labels[req.key] : undefined;
    switch (req.op) {
      case 'exists':
        return has;
      case 'notExists':
        return !has;
      case 'equals':
        return has && value === req.value;
      case 'notEquals':
        return !has || value !== req.value;
      case 'in':
        return has && req.values.includes(value as string);
      case 'notIn':
        return !has || !req.values.includes(value as string);
      default:
        return false;
    }
  });
}

/** Whether the labels satisfy the selector; an invalid selector matches nothing. */
export function matchesLabelSelector(
  selector: string,
  labels: Labels,
): boolean {
  const requirements = parseLabelSelector(selector);
  return (
    requirements !== undefined && matchesRequirements(requirements, labels)
  );
}
