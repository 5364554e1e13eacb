import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
  container,
  createWorkload,
} from '@krypton/kube-testenv';
import { isDeepStrictEqual } from 'node:util';
import request from 'supertest';
import { rewriteToEnd } from '../../__testUtils__/storageRewrite';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';
import { b64 } from '../../__testUtils__/history';

/**
 * One authorization matrix over HTTP: every Secret route × the caller's role on the Secret × the
 * Kubernetes RBAC of the impersonated user × the identity mode, plus slices with the Backstage
 * permission denied and with restart disabled. Every expectation comes from `decide` below, a
 * function of the cell written from the README (API, Access, Restart consumers, Storage rewrite)
 * and the spec, never from observed answers.
 */

// Values that only callers allowed to reveal the Secret may ever see.
const CANARY = 'matrix-canary-3b9e71';
const LIVE = `${CANARY}:live`;
const V1 = `${CANARY}:v1`;

// Fixed messages (README: every failure is `{ "error": "<fixed message>" }`).
const MESSAGES = {
  kubernetes:
    'Access denied. Check Kubernetes permissions for the effective identity and, when enabled, ServiceAccount impersonation permissions.',
  acl: "You are not allowed to do this by the Secret's access rules.",
  permission:
    'You are not allowed to do this by the Backstage permission policy.',
  snapshot: 'Secret not found',
  'restart-disabled': 'Restarting apps is disabled on this deployment',
  scope:
    'You may not list the Secrets of this namespace, so Krypton does not rewrite it for you.',
} as const;

type Mode = 'impersonation' | 'hybrid' | 'serviceAccount';
/**
 * base: the permission policy allows everything and restart is enabled; permission-denied: the
 * policy denies the route's permissions to the cell's user; restart-disabled: a backend without
 * krypton.restart.enabled.
 */
type Variant = 'base' | 'permission-denied' | 'restart-disabled';
type Role =
  | 'no-rules'
  | 'viewer'
  | 'editor'
  | 'owner'
  | 'admin'
  | 'admin/no-rules'
  | 'stranger';
/** full: Secrets and apps workloads; secrets: Secrets only; none: nothing at all. */
type Rbac = 'full' | 'secrets' | 'none';
/** The live Secret, or the name of one of its real history snapshots (krypton-h-…). */
type Target = 'live' | 'snapshot';
type Action =
  | 'read'
  | 'reveal'
  | 'update'
  | 'delete'
  | 'restore'
  | 'restart'
  | 'manageAccess';
type RouteId =
  | 'list'
  | 'create'
  | 'get'
  | 'summary'
  | 'put-data'
  | 'put-meta'
  | 'adopt'
  | 'versions'
  | 'version'
  | 'restore'
  | 'delete'
  | 'consumers'
  | 'restart'
  | 'restart-last'
  | 'owner-sync'
  | 'storage-rewrite';

interface Cell {
  mode: Mode;
  variant: Variant;
  route: RouteId;
  role: Role;
  rbac: Rbac;
  target: Target;
}

interface RouteSpec {
  /** The actions of the access rules that the route needs, as the README names them. */
  actions: Action[];
  /** A named-Secret route (`.../secrets/:name...`). */
  named: boolean;
  /** Changes the Secret: each cell gets a Secret of its own, so cells stay independent. */
  mutates: boolean;
  /** Answers with Secret values on success. */
  reveals: boolean;
  /** Lists (and patches) workloads after the live checks. */
  workloads: boolean;
  /** The status of success. */
  ok: number;
  /**
   * README, Permissions: what the route asks the Backstage policy. All but create, the list and
   * the storage rewrite name the Secret as `<cluster>/<namespace>/<name>`.
   */
  permissions: string[];
  /**
   * README API, SecretWriteAnswer: create, update and restore answer with the values only when
   * the caller may read and reveal them, so the route also asks for `krypton.secret.read` and
   * `krypton.secret.reveal` on the Secret, beside the write.
   */
  answerReveal?: boolean;
}

const ROUTES: Record<RouteId, RouteSpec> = {
  // README API: metadata only, no values; Access: `krypton.secret.read` is "the gate for listing",
  // and the access rules decide which Secrets are listed (read), they refuse nothing.
  list: {
    actions: [],
    named: false,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.read'],
  },
  // A new Secret has no rules yet: only RBAC and `krypton.secret.create` gate it. 201.
  create: {
    actions: [],
    named: false,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 201,
    permissions: ['krypton.secret.create'],
    answerReveal: true,
  },
  // "the SecretDto, values included": read and reveal (viewers may read and reveal).
  get: {
    actions: ['read', 'reveal'],
    named: true,
    mutates: false,
    reveals: true,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.read', 'krypton.secret.reveal'],
  },
  // "for readers: no values, so only the read gates apply". Its `policy` answers every action,
  // asked in the same request to the permission backend as the read.
  summary: {
    actions: ['read'],
    named: true,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: [
      'krypton.secret.delete',
      'krypton.secret.read',
      'krypton.secret.restart',
      'krypton.secret.restore',
      'krypton.secret.reveal',
      'krypton.secret.update',
    ],
  },
  // A data edit: "editors may ... update".
  'put-data': {
    actions: ['update'],
    named: true,
    mutates: true,
    reveals: false, // the answer carries the caller's new value, not the canary
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.update'],
    answerReveal: true,
  },
  // A description edit: "Changing the description or rules needs owner rights."
  'put-meta': {
    actions: ['manageAccess'],
    named: true,
    mutates: true,
    reveals: true,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.update'], // "also description and rules"
    answerReveal: true,
  },
  // Adopting with a description takes Krypton's management and sets the description: an update
  // that changes the description, which needs owner rights. The answer is a summary (no values).
  adopt: {
    actions: ['update', 'manageAccess'],
    named: true,
    mutates: true,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.update'],
  },
  // Spec: /versions "authorize[s] its current ACL before accessing any snapshot"; no values: read.
  versions: {
    actions: ['read'],
    named: true,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.read'],
  },
  // One snapshot with its values ("audited as a value read"): read and reveal, current ACL.
  version: {
    actions: ['read', 'reveal'],
    named: true,
    mutates: false,
    reveals: true,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.read', 'krypton.secret.reveal'],
  },
  // "editors may ... restore"; the answer is the restored SecretDto with values.
  restore: {
    actions: ['restore'],
    named: true,
    mutates: true,
    reveals: true,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.restore'],
    answerReveal: true,
  },
  // Delete is not among the editors' actions: "Owners may do everything".
  delete: {
    actions: ['delete'],
    named: true,
    mutates: true,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.delete'],
  },
  // "the consumers dry run ... behind the read gates; nothing is patched".
  consumers: {
    actions: ['read'],
    named: true,
    mutates: false,
    reveals: false,
    workloads: true,
    ok: 200,
    permissions: ['krypton.secret.read'],
  },
  // Restart consumers, Gates: "the same gates as an update of the Secret, and restart's own: ...
  // the update and restart actions of the access rules (editors and owners), and both
  // krypton.secret.update and krypton.secret.restart".
  restart: {
    actions: ['update', 'restart'],
    named: true,
    mutates: false, // it patches workloads, never the Secret
    reveals: false,
    workloads: true,
    ok: 200,
    permissions: ['krypton.secret.update', 'krypton.secret.restart'],
  },
  // "the latest restart result of this live Secret ... behind the read gates".
  'restart-last': {
    actions: ['read'],
    named: true,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.read'],
  },
  // docs/owners.md: whether Krypton can ask the owner to sync, "behind the update gates (a sync
  // replaces the data)". The matrix's Secrets have no owner, so past the gates the answer is a
  // 200 offer of nothing (its POST shares the gates and is proven in ownerSync).
  'owner-sync': {
    actions: ['update'],
    named: true,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.secret.update'],
  },
  // `POST /storage-rewrite?namespace=…`: "needs krypton.storage.rewrite"; its identity is
  // "Krypton's own, in every mode, after the krypton.storage.rewrite permission check". It answers
  // 202 with the run; the cell reads the run (200) once it ended.
  'storage-rewrite': {
    actions: [],
    named: false,
    mutates: false,
    reveals: false,
    workloads: false,
    ok: 200,
    permissions: ['krypton.storage.rewrite'],
  },
};
const ROUTE_IDS = Object.keys(ROUTES) as RouteId[];

const ROLES: Role[] = [
  'no-rules',
  'viewer',
  'editor',
  'owner',
  'admin',
  'admin/no-rules',
  'stranger',
];

/** The access rules of every Secret with rules. */
const RULES = {
  'krypton.io/owners': 'user:default/carol',
  // bob holds it through his second group only.
  'krypton.io/editors': 'group:default/team-c',
  'krypton.io/viewers': 'group:default/team-a',
};

/** Who plays each role (testBackend's DIRECTORY), and whether the cell's Secret has rules. */
const PLAYER: Record<Role, { user: string; rules: boolean }> = {
  'no-rules': { user: 'alice', rules: false },
  viewer: { user: 'alice', rules: true }, // through group:default/team-a
  editor: { user: 'bob', rules: true }, // through group:default/team-c
  owner: { user: 'carol', rules: true }, // by her user ref
  // krypton.admins is group:default/krypton-admins (testBackend); no rule names root.
  admin: { user: 'root', rules: true },
  'admin/no-rules': { user: 'root', rules: false },
  // Not in the directory: no group, named by no rule.
  stranger: { user: 'dave', rules: true },
};

/** README, Access: "Owners may do everything, editors may read, reveal, update, restore and restart, viewers may read and reveal." */
const GRANTS: Record<'viewer' | 'editor' | 'owner', readonly Action[]> = {
  viewer: ['read', 'reveal'],
  editor: ['read', 'reveal', 'update', 'restore', 'restart'],
  owner: [
    'read',
    'reveal',
    'update',
    'restore',
    'restart',
    'delete',
    'manageAccess',
  ],
};

/** Do the Secret's current access rules let this role do all of these actions? */
function rulesAllow(role: Role, actions: Action[], mode: Mode): boolean {
  if (actions.length === 0) return true;
  // "Entity refs in krypton.admins pass any rules (RBAC and permissions still apply)."
  if (role === 'admin' || role === 'admin/no-rules') return true;
  // "A Secret without rules leaves the decision to the other gates, except in serviceAccount
  // mode, where no Kubernetes RBAC stands behind Krypton: there a Secret without rules is served
  // (and listed) only to krypton.admins."
  if (role === 'no-rules') return mode !== 'serviceAccount';
  if (role === 'stranger') return false;
  return actions.every(a => GRANTS[role].includes(a));
}

interface Decision {
  status: number;
  because:
    | 'ok'
    | 'kubernetes'
    | 'acl'
    | 'permission'
    | 'snapshot'
    | 'restart-disabled'
    | 'scope';
  /** Workload discovery ran as an identity without apps RBAC (impersonation mode only). */
  workloadsForbidden?: boolean;
}

/** The rules: what a cell must answer. */
function decide(cell: Cell): Decision {
  const { route, role, rbac, mode, target, variant } = cell;
  const spec = ROUTES[route];
  const denied = variant === 'permission-denied';
  // Spec (history): "Snapshot names themselves return 404 on all named-secret routes, even for
  // admins"; README: "on named routes a snapshot name answers 404 first" (before the restart
  // switch too: no setting makes a snapshot name answer anything but 404).
  if (target === 'snapshot') return { status: 404, because: 'snapshot' };
  // README, Restart consumers: "Restart must be enabled (...), checked first after the name. Then
  // the same gates as an update of the Secret"; spec: "Returns 403 ... unless
  // KRYPTON_RESTART_ENABLED=true".
  if (variant === 'restart-disabled' && route === 'restart')
    return { status: 403, because: 'restart-disabled' };
  // README, Storage rewrite: "needs krypton.storage.rewrite"; its identity is "Krypton's own, in
  // every mode, after the krypton.storage.rewrite permission check": the Secrets' rules play no
  // part, and the user's RBAC only sets the scope.
  if (route === 'storage-rewrite') {
    if (denied) return { status: 403, because: 'permission' };
    // README, Storage rewrite: "?namespace= needs the caller's own identity to be able to list
    // the Secrets there (in serviceAccount mode, the namespace must be listed for the mode)".
    if (mode !== 'serviceAccount' && rbac === 'none')
      return { status: 403, because: 'scope' };
    return { status: spec.ok, because: 'ok' };
  }
  // A create has no live object; its RBAC shows only in the write itself, so the permission
  // (krypton.secret.create) must refuse before anything is written.
  if (route === 'create' && denied)
    return { status: 403, because: 'permission' };
  // README, Access: "Every Secret route authorizes against the current live object, in this
  // order: the Backstage identity, Kubernetes RBAC (through impersonation, depending on the
  // identity mode), the Backstage permission, then the Secret's access rules." Live reads and
  // writes impersonate the user in impersonation and hybrid modes; serviceAccount mode uses
  // Krypton's identity for everything.
  if (mode !== 'serviceAccount' && rbac === 'none')
    return { status: 403, because: 'kubernetes' };
  // "Entity refs in krypton.admins pass any rules (RBAC and permissions still apply)."
  if (denied) return { status: 403, because: 'permission' };
  if (!rulesAllow(role, spec.actions, mode))
    return { status: 403, because: 'acl' };
  // Restart spec: "In impersonation mode, every list and patch carries the full user/group
  // identity"; hybrid and serviceAccount modes discover as Krypton. Without apps RBAC all three
  // inventories fail: "failed discovery with zero known matches is failed" (503), while the dry
  // run reports its discoveryFailures.
  if (spec.workloads && mode === 'impersonation' && rbac !== 'full') {
    return {
      status: route === 'restart' ? 503 : spec.ok,
      because: 'ok',
      workloadsForbidden: true,
    };
  }
  return { status: spec.ok, because: 'ok' };
}

/**
 * The Backstage permission requests of a cell (README, Permissions; "The permission check runs
 * beside the first GET", so it is asked even when RBAC refuses the read). Nothing is asked when a
 * snapshot name is refused first, nor when restart is disabled.
 */
function expectedPermissions(cell: Cell): string[] {
  if (cell.target === 'snapshot' || decide(cell).because === 'restart-disabled')
    return [];
  const spec = ROUTES[cell.route];
  // The policy is asked without a resource ref: its conditions, if any, judge the live Secret
  // that Krypton reads (README, Permissions).
  const who = `as user:default/${PLAYER[cell.role].user}`;
  const asked = spec.permissions.map(p => `${p} - ${who}`);
  if (spec.answerReveal) {
    for (const p of ['krypton.secret.read', 'krypton.secret.reveal'])
      asked.push(`${p} - ${who}`);
  }
  return [...new Set(asked)].sort();
}

interface Slice {
  routes: RouteId[];
  roles: Role[];
  rbac: Rbac[];
  /** Routes that also run with Secrets-only RBAC (no apps workloads). */
  workloadRoutes: RouteId[];
  snapshots: boolean;
}

/** Which cells each mode runs: the whole matrix in impersonation mode, slices elsewhere. */
const SLICES: Array<{ mode: Mode; variant: Variant; slice: Slice }> = [
  {
    mode: 'impersonation',
    variant: 'base',
    slice: {
      routes: ROUTE_IDS,
      roles: ROLES,
      rbac: ['full', 'none'],
      workloadRoutes: ['consumers', 'restart', 'restart-last'],
      snapshots: true,
    },
  },
  // Admins and strangers alike are refused by the permission, after RBAC and before the rules.
  {
    mode: 'impersonation',
    variant: 'permission-denied',
    slice: {
      routes: ROUTE_IDS,
      roles: ['owner', 'admin', 'stranger'],
      rbac: ['full', 'none'],
      workloadRoutes: [],
      snapshots: false,
    },
  },
  {
    mode: 'impersonation',
    variant: 'restart-disabled',
    slice: {
      routes: ['restart'],
      roles: ROLES,
      rbac: ['full', 'none'],
      workloadRoutes: [],
      snapshots: true,
    },
  },
  // Hybrid differs where history and workloads run as Krypton after the live checks.
  {
    mode: 'hybrid',
    variant: 'base',
    slice: {
      routes: [
        'version',
        'put-data',
        'restore',
        'delete',
        'consumers',
        'restart',
      ],
      roles: ROLES,
      rbac: ['full', 'none'],
      workloadRoutes: ['consumers', 'restart'],
      snapshots: true,
    },
  },
  // serviceAccount: the user's RBAC plays no part (users here hold none), and Secrets without
  // rules are served only to admins.
  {
    mode: 'serviceAccount',
    variant: 'base',
    slice: {
      routes: ROUTE_IDS,
      roles: ROLES,
      rbac: ['none'],
      workloadRoutes: [],
      snapshots: true,
    },
  },
  {
    mode: 'serviceAccount',
    variant: 'permission-denied',
    slice: {
      routes: ROUTE_IDS,
      roles: ['owner', 'admin', 'stranger'],
      rbac: ['none'],
      workloadRoutes: [],
      snapshots: false,
    },
  },
];
const MODES: Mode[] = ['impersonation', 'hybrid', 'serviceAccount'];

function cellsOf(mode: Mode, variant: Variant, slice: Slice): Cell[] {
  const cells: Cell[] = [];
  const add = (route: RouteId, rbac: Rbac, target: Target) =>
    slice.roles.forEach(role =>
      cells.push({ mode, variant, route, role, rbac, target }),
    );
  slice.routes.forEach(route => {
    const levels: Rbac[] = slice.workloadRoutes.includes(route)
      ? ['full', 'secrets', 'none']
      : slice.rbac;
    levels.forEach(level => add(route, level, 'live'));
  });
  if (slice.snapshots) {
    slice.routes
      .filter(route => ROUTES[route].named)
      .forEach(route =>
        slice.rbac.forEach(level => add(route, level, 'snapshot')),
      );
  }
  return cells;
}
const ALL_CELLS = SLICES.flatMap(({ mode, variant, slice }) =>
  cellsOf(mode, variant, slice),
);

const MODE_SLUG: Record<Mode, string> = {
  impersonation: 'imp',
  hybrid: 'hyb',
  serviceAccount: 'sa',
};
const VARIANT_SLUG: Record<Variant, string> = {
  base: '',
  'permission-denied': 'p',
  'restart-disabled': 'r',
};
const cellSlug = (cell: Cell) =>
  `${MODE_SLUG[cell.mode]}${VARIANT_SLUG[cell.variant]}`;
const roleSlug = (role: Role) =>
  role.replace('no-rules', 'norules').replace('/', '-');

/** The live Secret of a cell: its own for mutations, else the shared one of its kind. */
function secretOf(cell: Cell): string {
  if (ROUTES[cell.route].mutates) {
    return `${cellSlug(cell)}-${cell.route}-${roleSlug(cell.role)}`;
  }
  return PLAYER[cell.role].rules ? 'ruled' : 'plain';
}
function createdName(cell: Cell): string {
  return `${cellSlug(cell)}-new-${roleSlug(cell.role)}`;
}

interface Outcome {
  status: number;
  error?: string;
  detail?: Record<string, unknown>;
  noStore: boolean;
  canary: 'shown' | 'absent';
  /** The Backstage permission requests, as `<permission> <resourceRef or -> as <user>`. */
  permissions: string[];
}

const FORBIDDEN_KINDS = [
  'DaemonSet:forbidden',
  'Deployment:forbidden',
  'StatefulSet:forbidden',
];

/** What the success body of a route must say, from the decision and the fixture. */
function expectedDetail(
  cell: Cell,
  decision: Decision,
  namespace: string,
): Record<string, unknown> {
  const name = secretOf(cell);
  const consumer = `Deployment/uses-${name}`;
  switch (cell.route) {
    case 'list':
      return {
        listed: rulesAllow(cell.role, ['read'], cell.mode),
        values: false,
      };
    case 'create':
      return { name: createdName(cell), version: 1 };
    case 'get':
      return { value: LIVE };
    case 'summary':
      return { name, values: false };
    case 'put-data':
      return { value: 'rotated', version: 2 };
    case 'put-meta':
      return { description: 'edited by the matrix', value: LIVE, version: 1 };
    case 'adopt':
      return {
        managed: true,
        description: 'adopted by the matrix',
        values: false,
      };
    case 'versions':
      return { versions: [1] };
    case 'version':
      return { version: 1, value: V1 };
    case 'restore':
      // v1 was archived by the seeding edit; restoring it archives v2 and writes v3.
      return { value: V1, version: 3 };
    case 'delete':
      return { status: 'deleted', history: 'cleaned' };
    case 'consumers':
      return decision.workloadsForbidden
        ? { workloads: [], discoveryFailures: FORBIDDEN_KINDS }
        : { workloads: [consumer], discoveryFailures: [] };
    case 'restart':
      return decision.workloadsForbidden
        ? {
            status: 'failed',
            requested: [],
            failures: [],
            discoveryFailures: FORBIDDEN_KINDS,
          }
        : {
            status: 'requested',
            requested: [consumer],
            failures: [],
            discoveryFailures: [],
          };
    case 'restart-last':
      return { answered: true };
    case 'owner-sync':
      return { available: false, refusal: 'not_supported' };
    case 'storage-rewrite':
      return { namespaces: [namespace], failed: 0 };
    default:
      throw new Error(`no detail for ${cell.route}`);
  }
}

type Body = Record<string, any>;
const refs = (items: Body[] | undefined) =>
  (items ?? []).map(w => `${w.kind}/${w.name}`).sort();
const failedKinds = (items: Body[] | undefined) =>
  (items ?? []).map(f => `${f.kind}:${f.code}`).sort();

/** The same facts read from an answer. */
function describeBody(cell: Cell, body: Body): Record<string, unknown> {
  switch (cell.route) {
    case 'list':
      return {
        listed: (body.items ?? []).some((s: Body) => s.name === secretOf(cell)),
        values: (body.items ?? []).some(
          (s: Body) => 'data' in s || 'binaryData' in s,
        ),
      };
    case 'create':
      return { name: body.name, version: body.version };
    case 'get':
      return { value: body.data?.k };
    case 'summary':
      return {
        name: body.name,
        values: 'data' in body || 'binaryData' in body,
      };
    case 'put-data':
      return { value: body.data?.k, version: body.version };
    case 'put-meta':
      return {
        description: body.description,
        value: body.data?.k,
        version: body.version,
      };
    case 'adopt':
      return {
        managed: body.managed,
        description: body.description,
        values: 'data' in body || 'binaryData' in body,
      };
    case 'versions':
      return { versions: (body.items ?? []).map((v: Body) => v.version) };
    case 'version':
      return { version: body.version, value: body.data?.k };
    case 'restore':
      return { value: body.data?.k, version: body.version };
    case 'delete':
      return { status: body.status, history: body.history };
    case 'consumers':
      return {
        workloads: refs(body.workloads),
        discoveryFailures: failedKinds(body.discoveryFailures),
      };
    case 'restart':
      return {
        status: body.status,
        requested: refs(body.requested),
        failures: failedKinds(body.failures),
        discoveryFailures: failedKinds(body.discoveryFailures),
      };
    case 'restart-last':
      return { answered: 'last' in body };
    case 'owner-sync':
      return { available: body.available, refusal: body.refusal };
    case 'storage-rewrite': {
      const result = body.result as Body | undefined;
      return {
        namespaces: result?.namespaces,
        failed: (result?.counts as Body | undefined)?.failed,
      };
    }
    default:
      throw new Error(`no description for ${cell.route}`);
  }
}

function expectedOutcome(cell: Cell, namespace: string): Outcome {
  const decision = decide(cell);
  const success = decision.because === 'ok';
  return {
    status: decision.status,
    ...(success
      ? { detail: expectedDetail(cell, decision, namespace) }
      : { error: MESSAGES[decision.because as keyof typeof MESSAGES] }),
    // README API: "Every answer carries Cache-Control: no-store"; the restart spec says so of
    // every result and error status.
    noStore: true,
    // Values only reach callers whom the rules let reveal them, on routes that return values.
    canary:
      success && decision.status < 300 && ROUTES[cell.route].reveals
        ? 'shown'
        : 'absent',
    permissions: expectedPermissions(cell),
  };
}

function observe(
  cell: Cell,
  res: request.Response,
  asked: Array<{ permission: string; resourceRef?: string; user?: string }>,
): Outcome {
  const body: Body = res.body ?? {};
  // A restart result is the body of 200, 207 and 503 alike; anything else is an error envelope.
  const result =
    res.status < 300 ||
    (cell.route === 'restart' && typeof body.status === 'string');
  return {
    status: res.status,
    ...(result
      ? { detail: describeBody(cell, body) }
      : { error: body.error as string }),
    noStore: res.headers['cache-control'] === 'no-store',
    canary: res.text.includes(CANARY) ? 'shown' : 'absent',
    permissions: [
      ...new Set(
        asked.map(r => `${r.permission} ${r.resourceRef ?? '-'} as ${r.user}`),
      ),
    ].sort(),
  };
}

/** Runs async work a few at a time (the machine has two cores). */
async function inBatches<T>(
  items: T[],
  size: number,
  work: (item: T) => Promise<unknown>,
) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(work));
  }
}

describe('authorization matrix over HTTP', () => {
  const namespaces: Record<Rbac, { readonly name: string }> = {
    full: useTestNamespace('krypton-mx'),
    secrets: useTestNamespace('krypton-mx'),
    none: useTestNamespace('krypton-mx'),
  };
  const admin = new ClusterAdmin();
  /** One backend per mode, and one in impersonation mode with restart disabled. */
  const backends = {} as Record<Mode | 'restart-disabled', KryptonTestBackend>;
  const backendOf = (cell: Cell) =>
    backends[cell.variant === 'restart-disabled' ? cell.variant : cell.mode];
  /** A real history snapshot of `ruled` in each namespace. */
  const snapshotOf = {} as Record<Rbac, string>;
  const results: Array<{ cell: Cell; observed: Outcome; expected: Outcome }> =
    [];
  const started = Date.now();

  const secretsBase = (namespace: string) =>
    `/api/krypton/namespaces/${namespace}/secrets`;

  /** Creates a Secret natively, as Krypton would have created (managed) or found it. */
  const nativeSecret = (
    namespace: string,
    name: string,
    options: { managed: boolean; rules: boolean; value: string },
  ) =>
    admin.createSecret(namespace, {
      metadata: {
        name,
        labels: options.managed ? { 'krypton.io/managed-by': 'krypton' } : {},
        annotations: {
          ...(options.managed ? { 'krypton.io/version': '1' } : {}),
          ...(options.rules ? RULES : {}),
        },
      },
      data: { k: b64(options.value) },
    });

  /** An edit through Krypton as an admin in serviceAccount mode, so v1 lands in history. */
  const seedHistory = async (namespace: string, name: string) => {
    const live = await admin.secret(namespace, name);
    const res = await request(backends.serviceAccount.server)
      .put(`${secretsBase(namespace)}/${name}`)
      .set('Authorization', as('root'))
      .send({
        resourceVersion: live.metadata.resourceVersion,
        data: { k: LIVE },
      });
    if (res.status !== 200) {
      throw new Error(`seeding history of ${name} failed: ${res.status}`);
    }
  };

  beforeAll(async () => {
    const [imp, hyb, sa, off] = await Promise.all([
      ...MODES.map(identity =>
        startKryptonBackend({
          restart: { enabled: true },
          kubernetes: {
            identity,
            // README: serviceAccount mode creates only in the namespaces its operator lists.
            serviceAccountMode: {
              namespaces: Object.values(namespaces).map(n => n.name),
            },
          },
        }),
      ),
      startKryptonBackend({
        restart: { enabled: false },
        kubernetes: { identity: 'impersonation' },
      }),
    ]);
    backends.impersonation = imp;
    backends.hybrid = hyb;
    backends.serviceAccount = sa;
    backends['restart-disabled'] = off;

    // The users' RBAC, once: everything on Secrets, and the workloads that restart needs.
    const subjects = [
      { kind: 'User' as const, name: 'user:default/alice' },
      { kind: 'Group' as const, name: 'group:default/team-c' }, // bob
      { kind: 'User' as const, name: 'user:default/carol' },
      { kind: 'Group' as const, name: 'group:default/krypton-admins' }, // root
      { kind: 'User' as const, name: 'user:default/dave' },
    ];
    const secretsRule = {
      apiGroups: [''],
      resources: ['secrets'],
      verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
    };
    const appsRule = {
      apiGroups: ['apps'],
      resources: ['deployments', 'statefulsets', 'daemonsets'],
      verbs: ['get', 'list', 'patch'],
    };
    await Promise.all([
      ...subjects.map((subject, i) =>
        admin.grant(namespaces.full.name, `matrix-${i}`, subject, [
          secretsRule,
          appsRule,
        ]),
      ),
      ...subjects.map((subject, i) =>
        admin.grant(namespaces.secrets.name, `matrix-${i}`, subject, [
          secretsRule,
        ]),
      ),
    ]);

    // The shared Secrets of the read-only cells, each with one consuming Deployment.
    const shared: Array<[Rbac, string, boolean]> = [];
    (Object.keys(namespaces) as Rbac[]).forEach(level => {
      shared.push([level, 'plain', false], [level, 'ruled', true]);
    });
    await inBatches(shared, 6, async ([level, name, rules]) => {
      const namespace = namespaces[level].name;
      await nativeSecret(namespace, name, { managed: true, rules, value: V1 });
      await createWorkload(admin, namespace, 'Deployment', `uses-${name}`, {
        containers: [container({ envFrom: [{ secretRef: { name } }] })],
      });
    });

    // One Secret per mutating cell.
    const own = ALL_CELLS.filter(
      c => c.target === 'live' && ROUTES[c.route].mutates,
    );
    await inBatches(own, 6, cell =>
      nativeSecret(namespaces[cell.rbac].name, secretOf(cell), {
        managed: cell.route !== 'adopt',
        rules: PLAYER[cell.role].rules,
        // Restore targets go through one edit below, so that version 1 is in history.
        value: cell.route === 'restore' ? V1 : LIVE,
      }),
    );
    const seeded: Array<[string, string]> = [
      ...shared.map(
        ([level, name]) => [namespaces[level].name, name] as [string, string],
      ),
      ...own
        .filter(c => c.route === 'restore')
        .map(c => [namespaces[c.rbac].name, secretOf(c)] as [string, string]),
    ];
    await inBatches(seeded, 4, ([namespace, name]) =>
      seedHistory(namespace, name),
    );

    for (const level of Object.keys(namespaces) as Rbac[]) {
      const snapshot = (await admin.snapshots(namespaces[level].name)).find(
        s => s.metadata.annotations?.['krypton.io/history-of'] === 'ruled',
      );
      if (!snapshot?.metadata.name?.startsWith('krypton-h-')) {
        throw new Error(`no snapshot of ruled in ${level}`);
      }
      snapshotOf[level] = snapshot.metadata.name;
    }

    // RBAC reaches the authorizer through a watch: wait until every user's grant applies.
    for (const level of ['full', 'secrets'] as const) {
      for (const user of ['alice', 'bob', 'carol', 'root', 'dave']) {
        const res = await eventually(
          () =>
            request(imp.server)
              .get(secretsBase(namespaces[level].name))
              .set('Authorization', as(user)),
          r => r.status === 200,
        );
        if (res.status !== 200) {
          throw new Error(`RBAC of ${user} in ${level} never applied`);
        }
      }
    }
  });

  afterAll(async () => {
    process.stdout.write(`${matrixTable(results, started)}\n`);
    await Promise.all(Object.values(backends).map(b => b.stop()));
    admin.close();
  });

  /** Sends the cell's request, as the cell's user. */
  async function send(cell: Cell): Promise<request.Response> {
    const api = request(backendOf(cell).server);
    const namespace = namespaces[cell.rbac].name;
    const name =
      cell.target === 'snapshot' ? snapshotOf[cell.rbac] : secretOf(cell);
    const base = secretsBase(namespace);
    const url = `${base}/${name}`;
    const auth = as(PLAYER[cell.role].user);
    const needsRevision = [
      'put-data',
      'put-meta',
      'adopt',
      'restore',
      'delete',
    ].includes(cell.route);
    // The revision the client loaded, read natively: the caller may not be able to read it.
    const resourceVersion = needsRevision
      ? (await admin.secret(namespace, name)).metadata.resourceVersion
      : undefined;
    switch (cell.route) {
      case 'list':
        return api.get(base).set('Authorization', auth);
      case 'create':
        return api
          .post(base)
          .set('Authorization', auth)
          .send({ name: createdName(cell), data: { k: 'created' } });
      case 'get':
        return api.get(url).set('Authorization', auth);
      case 'summary':
        return api.get(`${url}/summary`).set('Authorization', auth);
      case 'put-data':
        return api
          .put(url)
          .set('Authorization', auth)
          .send({ resourceVersion, data: { k: 'rotated' } });
      case 'put-meta':
        return api
          .put(url)
          .set('Authorization', auth)
          .send({ resourceVersion, description: 'edited by the matrix' });
      case 'adopt':
        return api
          .post(`${url}/adopt`)
          .set('Authorization', auth)
          .send({ resourceVersion, description: 'adopted by the matrix' });
      case 'versions':
        return api.get(`${url}/versions`).set('Authorization', auth);
      case 'version':
        return api.get(`${url}/versions/1`).set('Authorization', auth);
      case 'restore':
        return api
          .post(`${url}/restore`)
          .set('Authorization', auth)
          .send({ version: 1, resourceVersion });
      case 'delete':
        return api
          .delete(
            `${url}?resourceVersion=${encodeURIComponent(resourceVersion!)}`,
          )
          .set('Authorization', auth);
      case 'consumers':
        return api.get(`${url}/consumers`).set('Authorization', auth);
      case 'restart':
        return api.post(`${url}/restart-consumers`).set('Authorization', auth);
      case 'restart-last':
        return api
          .get(`${url}/restart-consumers/last`)
          .set('Authorization', auth);
      case 'owner-sync':
        return api.get(`${url}/owner-sync`).set('Authorization', auth);
      case 'storage-rewrite': {
        // A started run answers 202 at once; the cell observes the run as it ended.
        const run = await rewriteToEnd(
          backendOf(cell),
          `?namespace=${encodeURIComponent(namespace)}`,
          { user: PLAYER[cell.role].user },
        );
        if (!run.final) return run.start;
        expect(run.start.status).toBe(202);
        expect(run.start.headers['cache-control']).toBe('no-store');
        expect(run.final.body.state).toBe('succeeded');
        return run.final;
      }
      default:
        throw new Error(`unknown route ${cell.route}`);
    }
  }

  describe.each(SLICES)('$mode mode, $variant', ({ mode, variant, slice }) => {
    it.each(cellsOf(mode, variant, slice))(
      '$route on the $target Secret as $role, RBAC $rbac',
      async cell => {
        testPolicy.reset();
        if (cell.variant === 'permission-denied') {
          const user = `user:default/${PLAYER[cell.role].user}`;
          ROUTES[cell.route].permissions.forEach(p =>
            testPolicy.denied.add(`${user}:${p}`),
          );
        }
        const res = await send(cell);
        const observed = observe(cell, res, testPolicy.requests);
        testPolicy.reset();
        const expected = expectedOutcome(cell, namespaces[cell.rbac].name);
        results.push({ cell, observed, expected });
        expect(observed).toEqual(expected);
      },
    );

    it('never writes a value into a log line or an audit event', () => {
      const backend =
        variant === 'restart-disabled'
          ? backends['restart-disabled']
          : backends[mode];
      expect(backend.sink.text()).not.toContain(CANARY);
    });
  });
});

/**
 * route × role, per mode and variant; each entry lists the statuses for RBAC full/secrets/none,
 * with the reason of a 403 (k: Kubernetes RBAC, p: permission, a: access rules, d: restart
 * disabled) and `!` where a cell disagreed with the rules.
 */
function matrixTable(
  results: Array<{ cell: Cell; observed: Outcome; expected: Outcome }>,
  started: number,
): string {
  const lines = [
    '',
    `[authorizationMatrix] ${results.length} cells in ${
      Date.now() - started
    } ms. Each entry: RBAC full/secrets-only/none (- = not in the slice); 403k Kubernetes RBAC, 403p permission, 403a access rules, 403d restart disabled; ! = disagrees with the rules`,
  ];
  const reason: Record<string, string> = {
    [MESSAGES.kubernetes]: 'k',
    [MESSAGES.permission]: 'p',
    [MESSAGES.acl]: 'a',
    [MESSAGES['restart-disabled']]: 'd',
  };
  const plain = (o: Outcome) => JSON.parse(JSON.stringify(o));
  const mark = (r: { observed: Outcome; expected: Outcome }) => {
    const text = `${r.observed.status}${reason[r.observed.error ?? ''] ?? ''}`;
    return isDeepStrictEqual(plain(r.observed), plain(r.expected))
      ? text
      : `${text}!`;
  };
  for (const { mode, variant } of SLICES) {
    for (const target of ['live', 'snapshot'] as Target[]) {
      const mine = results.filter(
        r =>
          r.cell.mode === mode &&
          r.cell.variant === variant &&
          r.cell.target === target,
      );
      if (mine.length === 0) continue;
      const roles = ROLES.filter(role => mine.some(r => r.cell.role === role));
      lines.push(
        '',
        `${mode} mode, ${variant}, ${
          target === 'live' ? 'live Secret' : 'snapshot name'
        }:`,
        `| route | ${roles.join(' | ')} |`,
        `|---|${roles.map(() => '---').join('|')}|`,
      );
      for (const route of ROUTE_IDS) {
        const row = mine.filter(r => r.cell.route === route);
        if (row.length === 0) continue;
        const entries = roles.map(role =>
          (['full', 'secrets', 'none'] as Rbac[])
            .map(level => {
              const hit = row.find(
                r => r.cell.role === role && r.cell.rbac === level,
              );
              return hit ? mark(hit) : '-';
            })
            .join('/'),
        );
        lines.push(`| ${route} | ${entries.join(' | ')} |`);
      }
    }
  }
  return lines.join('\n');
}
