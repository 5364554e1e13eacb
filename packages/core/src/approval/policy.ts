import { kryptonKeys } from '../annotations';
import { tryNormalizeEntityRef } from '../entityRefs';
import { NativeSecret } from '../kubernetes/types';
import { Labels, matchesRequirements } from '../labelMatch';
import { LabelRequirement, parseLabelSelector } from '../labelSelector';
import { KryptonError } from '../errors';
import { Parsed } from '../settings';

/**
 * Whether a soft policy may be bypassed: `hard` never; `soft` by the named groups, with a reason,
 * every approver being told.
 *
 * @public
 */
export type ApprovalEnforcement = 'hard' | 'soft';

/** @public */
export const APPROVALS_MIN = 1;
/** @public */
export const APPROVALS_MAX = 5;
/** @public */
export const APPROVAL_EXPIRY_DEFAULT_HOURS = 24;
/** @public */
export const APPROVAL_EXPIRY_MAX_HOURS = 7 * 24;
/** Rules a configuration may hold: each Secret's write is checked against every one. */
const MAX_RULES = 100;
/** Clusters, namespace patterns and groups one rule may name. */
const MAX_NAMES = 100;

/**
 * One rule of `krypton.approval.rules`, validated: the Secrets it covers and what a change to
 * them needs. Absent matchers match everything.
 *
 * @public
 */
export interface ApprovalRule {
  /** Cluster names, exactly. */
  clusters?: string[];
  /** Namespace names, exactly or as globs (`*` any run of characters, `?` one). */
  namespaces?: string[];
  /** The Secret's labels, in kubectl's selector syntax. */
  labelSelector?: string;
  requiredApprovals: number;
  /** Normalized group refs whose members may approve; absent: the Secret's owners. */
  approverGroups?: string[];
  allowSelfApproval: boolean;
  expiresAfterHours: number;
  enforcement: ApprovalEnforcement;
  /** Normalized group refs whose members may bypass a soft rule; empty for a hard one. */
  bypassGroups: string[];
}

/**
 * What a change to one Secret needs, from the first rule that covers it, tightened by the
 * Secret's own `required-approvals` annotation.
 *
 * @public
 */
export interface ApprovalPolicy {
  requiredApprovals: number;
  /** `owners`: the refs of the Secret's owners annotation; `groups`: members of these groups. */
  approvers: { kind: 'owners' } | { kind: 'groups'; groups: string[] };
  allowSelfApproval: boolean;
  expiresAfterHours: number;
  enforcement: ApprovalEnforcement;
  bypassGroups: string[];
  /** The index of the covering rule, or `annotation` when the Secret alone asks for approval. */
  source: number | 'annotation';
  /** Why the Secret's annotation was read as one approval: its value is not 1 to 5. */
  annotationProblem?: string;
}

/**
 * What the policy of one Secret is decided on.
 *
 * @public
 */
export interface ApprovalTarget {
  cluster: string;
  namespace: string;
  labels: Labels;
  annotations: Readonly<Record<string, string>>;
}

const NAME_GLOB = /^[a-z0-9*?-]{1,63}$/;
const CLUSTER_NAME = /^[^\s]{1,253}$/;

/**
 * Whether a name matches a glob of `*` and `?`. Greedy with one backtrack point (the last star),
 * so it is at most the product of the two lengths, both at most 63 here.
 */
export function matchesGlob(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star !== -1) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

type Problem = { error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(
  value: unknown,
  at: string,
  check: (item: string) => string | undefined,
): string[] | Problem | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_NAMES)
    return { error: `${at} must be a list of 1 to ${MAX_NAMES} entries` };
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const normalized = typeof item === 'string' ? check(item) : undefined;
    if (normalized === undefined) return { error: `${at}[${i}] is not valid` };
    out.push(normalized);
  }
  return out;
}

const groupRef = (ref: string) => tryNormalizeEntityRef(ref, ['group']);

function wholeNumber(
  value: unknown,
  at: string,
  min: number,
  max: number,
  fallback?: number,
): number | Problem {
  if (value === undefined && fallback !== undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < min ||
    value > max
  )
    return { error: `${at} must be a whole number from ${min} to ${max}` };
  return value;
}

const isProblem = (value: unknown): value is Problem =>
  isRecord(value) && typeof value.error === 'string';

const KNOWN_FIELDS = new Set([
  'clusters',
  'namespaces',
  'labelSelector',
  'requiredApprovals',
  'approverGroups',
  'allowSelfApproval',
  'expiresAfterHours',
  'enforcement',
  'bypassGroups',
]);

function parseRule(raw: unknown, at: string): ApprovalRule | Problem {
  if (!isRecord(raw)) return { error: `${at} must be an object` };
  const unknownField = Object.keys(raw).find(key => !KNOWN_FIELDS.has(key));
  if (unknownField !== undefined)
    return {
      error: `${at}.${unknownField} is not a field of an approval rule`,
    };
  const clusters = stringList(raw.clusters, `${at}.clusters`, name =>
    CLUSTER_NAME.test(name) ? name : undefined,
  );
  if (isProblem(clusters)) return clusters;
  const namespaces = stringList(raw.namespaces, `${at}.namespaces`, name =>
    NAME_GLOB.test(name) ? name : undefined,
  );
  if (isProblem(namespaces)) return namespaces;
  let requirements: LabelRequirement[] | undefined;
  if (raw.labelSelector !== undefined) {
    if (typeof raw.labelSelector !== 'string' || raw.labelSelector === '')
      return { error: `${at}.labelSelector must be a label selector` };
    try {
      requirements = parseLabelSelector(raw.labelSelector);
    } catch (e) {
      if (!(e instanceof KryptonError)) throw e;
      return { error: `${at}.labelSelector is not a valid label selector` };
    }
  }
  const requiredApprovals = wholeNumber(
    raw.requiredApprovals,
    `${at}.requiredApprovals`,
    APPROVALS_MIN,
    APPROVALS_MAX,
  );
  if (isProblem(requiredApprovals)) return requiredApprovals;
  const approverGroups = stringList(
    raw.approverGroups,
    `${at}.approverGroups`,
    groupRef,
  );
  if (isProblem(approverGroups)) return approverGroups;
  if (
    raw.allowSelfApproval !== undefined &&
    typeof raw.allowSelfApproval !== 'boolean'
  )
    return { error: `${at}.allowSelfApproval must be true or false` };
  const expiresAfterHours = wholeNumber(
    raw.expiresAfterHours,
    `${at}.expiresAfterHours`,
    1,
    APPROVAL_EXPIRY_MAX_HOURS,
    APPROVAL_EXPIRY_DEFAULT_HOURS,
  );
  if (isProblem(expiresAfterHours)) return expiresAfterHours;
  const enforcement = raw.enforcement ?? 'hard';
  if (enforcement !== 'hard' && enforcement !== 'soft')
    return { error: `${at}.enforcement must be hard or soft` };
  const bypassGroups = stringList(
    raw.bypassGroups,
    `${at}.bypassGroups`,
    groupRef,
  );
  if (isProblem(bypassGroups)) return bypassGroups;
  if (enforcement === 'soft' && bypassGroups === undefined)
    return { error: `${at}.bypassGroups must name who may bypass a soft rule` };
  if (enforcement === 'hard' && bypassGroups !== undefined)
    return { error: `${at}.bypassGroups applies to soft rules only` };
  return {
    ...(clusters ? { clusters } : {}),
    ...(namespaces ? { namespaces } : {}),
    ...(requirements ? { labelSelector: raw.labelSelector as string } : {}),
    requiredApprovals,
    ...(approverGroups ? { approverGroups } : {}),
    allowSelfApproval: raw.allowSelfApproval === true,
    expiresAfterHours,
    enforcement,
    bypassGroups: bypassGroups ?? [],
  };
}

/**
 * Validates `krypton.approval.rules` as read from configuration: an array of rule objects. Any
 * problem is one message naming the field, for a start-up error.
 *
 * @public
 */
export function parseApprovalRules(raw: unknown): Parsed<ApprovalRule[]> {
  if (raw === undefined) return { ok: true, value: [] };
  if (!Array.isArray(raw) || raw.length > MAX_RULES)
    return {
      ok: false,
      error: `krypton.approval.rules must be a list of at most ${MAX_RULES} rules`,
    };
  const rules: ApprovalRule[] = [];
  for (let i = 0; i < raw.length; i++) {
    const rule = parseRule(raw[i], `krypton.approval.rules[${i}]`);
    if (isProblem(rule)) return { ok: false, error: rule.error };
    rules.push(rule);
  }
  return { ok: true, value: rules };
}

/**
 * The approvals a Secret's own annotation asks for: undefined without it. A value that is not a
 * whole number from 1 to 5 still asks for approval, at the least (1), so that a mistyped
 * annotation never turns approval off; the policy says so in `annotationProblem`.
 */
function annotationApprovals(
  annotations: Readonly<Record<string, string>>,
  key: string,
): { approvals: number; problem?: string } | undefined {
  if (!Object.prototype.hasOwnProperty.call(annotations, key)) return undefined;
  const raw = annotations[key];
  const approvals = /^[1-9]$/.test(raw) ? Number(raw) : NaN;
  if (approvals >= APPROVALS_MIN && approvals <= APPROVALS_MAX)
    return { approvals };
  return {
    approvals: APPROVALS_MIN,
    problem: `The annotation ${key} must be a whole number from ${APPROVALS_MIN} to ${APPROVALS_MAX}; until its owners correct it, one approval is required.`,
  };
}

function covers(rule: ApprovalRule, target: ApprovalTarget): boolean {
  if (rule.clusters && !rule.clusters.includes(target.cluster)) return false;
  if (
    rule.namespaces &&
    !rule.namespaces.some(pattern => matchesGlob(pattern, target.namespace))
  )
    return false;
  if (rule.labelSelector !== undefined) {
    // Parsed once at start-up already; parsing again keeps the rule a plain, serializable value.
    const requirements = parseLabelSelector(rule.labelSelector);
    if (!matchesRequirements(requirements, target.labels)) return false;
  }
  return true;
}

/**
 * The approval policy of one Secret: the first rule that covers it, in the order configured, with
 * the Secret's `required-approvals` annotation raising the number of approvals (never lowering
 * it). The annotation alone, on a Secret that no rule covers, asks for that many approvals by the
 * Secret's owners, hard, expiring after the default 24 hours, the requester's own approval not
 * counting. Null when nothing asks for approval.
 *
 * @public
 */
export function approvalPolicyFor(
  target: ApprovalTarget,
  rules: readonly ApprovalRule[],
  annotationKey: string,
): ApprovalPolicy | null {
  const index = rules.findIndex(rule => covers(rule, target));
  const own = annotationApprovals(target.annotations, annotationKey);
  const problem = own?.problem ? { annotationProblem: own.problem } : {};
  if (index === -1) {
    if (!own) return null;
    return {
      requiredApprovals: own.approvals,
      approvers: { kind: 'owners' },
      allowSelfApproval: false,
      expiresAfterHours: APPROVAL_EXPIRY_DEFAULT_HOURS,
      enforcement: 'hard',
      bypassGroups: [],
      source: 'annotation',
      ...problem,
    };
  }
  const rule = rules[index];
  return {
    requiredApprovals: Math.max(rule.requiredApprovals, own?.approvals ?? 0),
    approvers: rule.approverGroups
      ? { kind: 'groups', groups: rule.approverGroups }
      : { kind: 'owners' },
    allowSelfApproval: rule.allowSelfApproval,
    expiresAfterHours: rule.expiresAfterHours,
    enforcement: rule.enforcement,
    bypassGroups: rule.bypassGroups,
    source: index,
    ...problem,
  };
}

/**
 * The approval policy of a live Secret on a cluster, from its labels and annotations.
 *
 * @public
 */
export function secretApprovalPolicy(
  secret: NativeSecret,
  cluster: string,
  rules: readonly ApprovalRule[],
  annotationPrefix: string,
): ApprovalPolicy | null {
  return approvalPolicyFor(
    {
      cluster,
      namespace: secret.metadata.namespace ?? '',
      labels: secret.metadata.labels ?? {},
      annotations: secret.metadata.annotations ?? {},
    },
    rules,
    kryptonKeys(annotationPrefix).requiredApprovals,
  );
}

/**
 * The approval that a Secret's own `required-approvals` annotation asks for, without any
 * `krypton.approval.rules`: what a host without Krypton's backend (Headlamp, the terminal) can
 * see. Such a host writes at once with the user's identity and cannot ask for approval, so it
 * writes nothing where this is not null.
 *
 * @public
 */
export function ownApprovalPolicy(
  secret: NativeSecret,
  annotationPrefix: string,
): ApprovalPolicy | null {
  // The cluster's name only matters to rules, and there are none.
  return secretApprovalPolicy(secret, '', [], annotationPrefix);
}
