import { AccessRules, tryNormalizeEntityRef } from '@krypton/core';

/**
 * Whom a Secret admits by name at the time of a change: the refs that its access rules name, and
 * Krypton's admins, who pass any rules. Membership is not resolved here: a group named in the
 * rules admits that group's ref, and the notifications and signals backends reach its members.
 */
export interface SecretAudience {
  /**
   * The live Secret's access rules as the operation found them (delete, restart) or left them
   * (update, restore: the object its own write answered), never from another read.
   */
  rules: AccessRules;
  /** krypton.admins, normalized. */
  admins: readonly string[];
}

/**
 * The refs that the Secret admits by name, normalized as Krypton compares refs (lowercase, the
 * namespace filled in). An entry of the rules that is no user or group ref admits no one.
 */
export function admittedRefs(audience: SecretAudience): string[] {
  const { rules, admins } = audience;
  const refs = new Set<string>();
  for (const ref of [
    ...rules.owners,
    ...rules.editors,
    ...rules.viewers,
    ...admins,
  ]) {
    const normal = tryNormalizeEntityRef(ref);
    if (normal) refs.add(normal);
  }
  return [...refs];
}

/**
 * Who of the linking entities' owners hears about a change: only those whom the Secret itself
 * admits, an owner named in a role of its rules or one of the admins, compared as exact
 * normalized refs. A catalog link alone admits no one: anyone who can publish an entity can
 * name any Secret in it and make themselves its owner. So a Secret without rules, whose readers
 * only Kubernetes RBAC decides, notifies only the owners that are admins.
 */
export function admittedOwners(
  owners: readonly string[],
  audience: SecretAudience,
): string[] {
  const admitted = new Set(admittedRefs(audience));
  const out = new Set<string>();
  for (const owner of owners) {
    const normal = tryNormalizeEntityRef(owner);
    if (normal && admitted.has(normal)) out.add(normal);
  }
  return [...out];
}
