import { parseEntityRef } from '@backstage/catalog-model';
import { Impersonation } from './kubernetes/transport';

export interface IdentityTemplates {
  userTemplate: string;
  groupTemplate: string;
  extraGroups: string[];
}

function render(template: string, ref: string): string {
  const { kind, namespace, name } = parseEntityRef(ref);
  const values: Record<string, string> = {
    ref: `${kind}:${namespace}/${name}`.toLocaleLowerCase('en-US'),
    kind: kind.toLocaleLowerCase('en-US'),
    namespace,
    name,
  };
  return template.replace(
    /\{\{\s*(ref|kind|namespace|name)\s*\}\}/g,
    (_m, key: string) => values[key],
  );
}

/**
 * The Kubernetes identity of a Backstage user: the user from their entity ref, and one group for
 * each group among their ownership refs, plus the configured extra groups.
 */
export function impersonationFor(
  user: { userEntityRef: string; ownershipEntityRefs: string[] },
  templates: IdentityTemplates,
): Impersonation {
  const groups = new Set<string>();
  for (const ref of user.ownershipEntityRefs) {
    let kind: string;
    try {
      kind = parseEntityRef(ref).kind.toLocaleLowerCase('en-US');
    } catch {
      continue;
    }
    if (kind === 'group') groups.add(render(templates.groupTemplate, ref));
  }
  for (const g of templates.extraGroups) groups.add(g);
  return {
    user: render(templates.userTemplate, user.userEntityRef),
    groups: [...groups],
  };
}
