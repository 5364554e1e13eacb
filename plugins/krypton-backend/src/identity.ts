import {
  KryptonError,
  Principal,
  kindOfRef,
  messages,
  tryNormalizeEntityRef,
} from '@krypton/core';
import { isHeaderExact } from './kubernetes/headerValue';
import { Impersonation } from './kubernetes/transport';

export interface IdentityTemplates {
  userTemplate: string;
  groupTemplate: string;
  extraGroups: string[];
}

/**
 * Fills a template from a normalized ref. Every placeholder is lowercase, like the ref itself, so
 * that one Backstage user always maps to one Kubernetes name, however the ref was spelled.
 */
function render(template: string, normalizedRef: string): string {
  const colon = normalizedRef.indexOf(':');
  const slash = normalizedRef.indexOf('/');
  const values: Record<string, string> = {
    ref: normalizedRef,
    kind: normalizedRef.slice(0, colon),
    namespace: normalizedRef.slice(colon + 1, slash),
    name: normalizedRef.slice(slash + 1),
  };
  return template.replace(
    /\{\{\s*(ref|kind|namespace|name)\s*\}\}/g,
    (_m, key: string) => values[key],
  );
}

/**
 * The Kubernetes identity of a Backstage user: the user from their entity ref, and one group for
 * each group among their ownership refs, plus the configured extra groups. A rendered name in the
 * system: namespace would let a catalog entry claim a built-in Kubernetes identity (such as
 * system:masters), so it is refused unless the operator listed it in extraGroups.
 */
export function impersonationFor(
  principal: Principal,
  templates: IdentityTemplates,
): Impersonation {
  const allowed = new Set(templates.extraGroups);
  const checked = (name: string) => {
    // Go's HTTP server trims the blanks around a header value, so " system:masters" arrives as
    // "system:masters": the name Kubernetes sees must be the name checked here.
    if (
      !isHeaderExact(name) ||
      (name.startsWith('system:') && !allowed.has(name))
    ) {
      throw new KryptonError('forbidden', messages.reservedIdentity);
    }
    return name;
  };
  const userRef = tryNormalizeEntityRef(principal.userEntityRef, ['user']);
  if (!userRef) throw new KryptonError('forbidden', messages.reservedIdentity);
  const groups = new Set<string>();
  for (const ref of principal.ownershipEntityRefs) {
    const normal = tryNormalizeEntityRef(ref, ['group']);
    if (normal && kindOfRef(normal) === 'group')
      groups.add(checked(render(templates.groupTemplate, normal)));
  }
  for (const g of templates.extraGroups) groups.add(g);
  return {
    user: checked(render(templates.userTemplate, userRef)),
    groups: [...groups],
  };
}
