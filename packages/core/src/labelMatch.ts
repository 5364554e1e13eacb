import { KryptonError } from './errors';
import { LabelRequirement, parseLabelSelector } from './labelSelector';

/**
 * The labels of a Kubernetes object, as a selector sees them.
 *
 * @public
 */
export type Labels = Readonly<Record<string, string>>;

/**
 * The terms of a selector in the syntax kubectl and the Backstage Kubernetes plugin accept, or
 * undefined when the API server would reject it: such a selector selects nothing there, so it
 * must not select anything here either. The parser is the one that validates the list route's
 * selectors, so the two never disagree on what a selector is, and it is linear: a hostile catalog
 * annotation cannot freeze a page or the backend.
 *
 * @public
 */
export function tryParseLabelSelector(
  selector: string,
): LabelRequirement[] | undefined {
  try {
    return parseLabelSelector(selector);
  } catch (e) {
    if (e instanceof KryptonError) return undefined;
    throw e;
  }
}

/**
 * Kubernetes semantics: every term must hold, and the negative forms (`!=`, `notin`) also hold
 * for objects without the label at all.
 *
 * @public
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

/**
 * Whether the labels satisfy the selector; an invalid selector matches nothing.
 *
 * @public
 */
export function matchesLabelSelector(
  selector: string,
  labels: Labels,
): boolean {
  const requirements = tryParseLabelSelector(selector);
  return (
    requirements !== undefined && matchesRequirements(requirements, labels)
  );
}
