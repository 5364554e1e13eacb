import { z } from 'zod/v3';

/*
 * The actions' schemas. Outputs are explicit objects: the actions registry parses every output
 * with them and drops any key they do not name, so a value can only leave an action through a
 * field written here, and none is.
 */

export const secretRef = {
  cluster: z
    .string()
    .optional()
    .describe(
      'A cluster configured for Krypton; the default cluster when absent',
    ),
  namespace: z.string().describe('Kubernetes namespace'),
  name: z.string().describe("The Secret's name"),
};

export const accessRules = z.object({
  owners: z.array(z.string()),
  editors: z.array(z.string()),
  viewers: z.array(z.string()),
});

/** What every view of a Secret's metadata has (SecretMetadataView). */
const secretMetadataView = {
  cluster: z.string(),
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  resourceVersion: z.string(),
  type: z.string(),
  managed: z.boolean(),
  version: z.number().nullable(),
  description: z.string().optional(),
  access: accessRules,
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  labels: z.record(z.string()).optional(),
  annotations: z
    .record(z.string())
    .optional()
    .describe(
      "Krypton's own annotations and those of other tools known to hold nothing derived from the values; the others only for a caller who may reveal the values",
    ),
  withheldAnnotations: z
    .number()
    .optional()
    .describe(
      "How many of the Secret's annotations are left out of annotations",
    ),
  ownerReferences: z
    .array(
      z.object({
        kind: z.string(),
        name: z.string(),
        uid: z.string(),
        controller: z.boolean(),
      }),
    )
    .optional(),
  lastChange: z
    .object({
      time: z.string(),
      manager: z
        .string()
        .optional()
        .describe('The field manager: a program such as kubectl-edit'),
    })
    .optional()
    .describe('The newest write that Kubernetes recorded, by any writer'),
  owner: z
    .object({
      tool: z
        .string()
        .describe('external-secrets, sealed-secrets, argocd, flux, helm, ...'),
      kind: z.string().optional(),
      name: z.string().optional(),
      namespace: z.string().optional(),
      outcome: z
        .string()
        .describe(
          'What an edit of the data in place will come to: reverted-at-once, reverted-at-refresh, reverted-at-sync, lost-later, reverted-at-upgrade, kept, ... (an edit that does not last should not be proposed)',
        ),
      evidence: z.array(z.string()),
      settings: z.array(z.string()).optional(),
      edits: z
        .enum(['refused', 'reason-required', 'allowed'])
        .describe(
          'What Krypton does with an update, restore, adopt or delete: refused (409), reason-required (a person must give a reason; an action cannot), allowed (the edit lasts)',
        ),
    })
    .optional()
    .describe(
      'The tool that owns the Secret, recognised from its metadata; absent when none does',
    ),
  dataAppliedBy: z
    .array(z.string())
    .optional()
    .describe(
      'Field managers that server-side apply the data: a change through Krypton makes their next apply conflict',
    ),
};

/** A change request's policy, frozen when it was made (ChangeRequestPolicy). */
const changeRequestPolicy = {
  requiredApprovals: z.number(),
  approvers: z
    .array(z.string())
    .describe('User and group refs; a member of a group may approve'),
  allowSelfApproval: z.boolean(),
  enforcement: z.enum(['hard', 'soft']),
  bypassGroups: z.array(z.string()),
};

export const secretSummary = z.object({
  ...secretMetadataView,
  immutable: z.boolean(),
  keys: z.array(z.string()).describe('Key names only, never values'),
  binaryKeys: z.array(z.string()),
  approval: z
    .object({
      ...changeRequestPolicy,
      expiresAfterHours: z.number(),
      annotationProblem: z.string().optional(),
    })
    .optional()
    .describe(
      'Set when changes to the Secret need approval: a restore then only requests it, and people decide',
    ),
});

const changeState = z.enum([
  'pending',
  'approved',
  'applied',
  'rejected',
  'withdrawn',
  'expired',
  'stale',
  'bypassed',
]);

/** A change request as the routes answer it: never a value. */
export const changeRequest = z.object({
  id: z.string(),
  cluster: z.string(),
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  baseRevision: z
    .string()
    .describe('The resourceVersion the change was planned against'),
  change: z
    .object({
      operation: z.enum(['update', 'restore', 'delete']),
      values: z
        .boolean()
        .optional()
        .describe('An update that replaces values (never shown here)'),
      version: z.number().optional().describe('The version to restore'),
      keepHistory: z.boolean().optional(),
      type: z.string().optional(),
      immutable: z.boolean().optional(),
      description: z.string().optional(),
      access: accessRules.partial().optional(),
      ownedEditReason: z.string().optional(),
    })
    .describe('What is asked, without values'),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  policy: z.object(changeRequestPolicy),
  state: changeState,
  decisions: z.array(
    z.object({
      by: z.string(),
      decision: z.enum(['approve', 'reject']),
      comment: z.string(),
      at: z.string(),
    }),
  ),
  bypass: z
    .object({ by: z.string(), reason: z.string(), at: z.string() })
    .optional(),
  ended: z
    .object({ at: z.string(), by: z.string(), note: z.string().optional() })
    .optional(),
  appliedVersion: z.number().optional(),
});

/** One Secret of a list, read without its values: the key count, no key names. */
export const secretListItem = z.object({
  ...secretMetadataView,
  keyCount: z.number().describe('How many keys the Secret has'),
});

export const versionSummary = z.object({
  version: z.number(),
  snapshotAt: z.string(),
  snapshotBy: z.string(),
  snapshotVia: z
    .string()
    .optional()
    .describe(
      "For a change outside Krypton that the recorder kept: the write's field manager",
    ),
  finalState: z
    .boolean()
    .optional()
    .describe('True for the state the Secret held when it was deleted'),
  approvedBy: z
    .array(z.string())
    .optional()
    .describe('For a change applied by a change request: who approved it'),
  sourceType: z.string(),
  sourceResourceVersion: z.string(),
  keys: z.array(z.string()).nullable(),
});

const workloadKind = z.enum(['Deployment', 'StatefulSet', 'DaemonSet']);

const failure = {
  code: z.string(),
  message: z.string(),
  httpStatus: z.number().optional(),
};

export const discoveryFailure = z.object({ kind: workloadKind, ...failure });

export const restartResult = z.object({
  status: z.enum(['requested', 'no_targets', 'partial', 'failed']),
  matched: z.number(),
  requested: z.array(z.object({ kind: workloadKind, name: z.string() })),
  failures: z.array(
    z.object({ kind: workloadKind, name: z.string(), ...failure }),
  ),
  discoveryFailures: z.array(discoveryFailure),
  message: z.string(),
  note: z.string(),
});

const consumerWorkload = z.object({
  kind: workloadKind,
  name: z.string(),
  usages: z.array(
    z.object({
      type: z.enum([
        'env',
        'envFrom',
        'volume',
        'projected',
        'imagePullSecret',
      ]),
      containers: z.array(z.string()).optional(),
      volume: z.string().optional(),
    }),
  ),
  paused: z.boolean(),
  onDelete: z.boolean(),
  reloader: z.boolean(),
  labels: z.record(z.string()),
});

const heldVersion = z
  .object({
    state: z.enum([
      'version',
      'between',
      'olderThan',
      'expected',
      'notStarted',
      'unknown',
      'imagePullOnly',
      'unused',
    ]),
    version: z.number().optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    by: z.string().optional(),
  })
  .describe(
    'version: holds it; between: started during a change, holds one of from..to; olderThan: a version older than it, where history cannot tell; expected: a mounted volume the kubelet updates by `by`',
  );

export const consumersResult = z.object({
  live: z.object({
    version: z.number().nullable(),
    since: z.string().optional(),
  }),
  checkedAt: z.string(),
  workloads: z.array(
    consumerWorkload.extend({
      rollout: z.object({
        desired: z.number().nullable(),
        updated: z.number().nullable(),
        ready: z.number().nullable(),
        available: z.number().nullable(),
        observed: z.boolean(),
        conditions: z.array(
          z.object({
            type: z.string(),
            status: z.string(),
            reason: z.string().optional(),
            message: z.string().optional(),
            lastTransitionTime: z.string().optional(),
          }),
        ),
      }),
      problems: z.array(
        z.object({ reason: z.string(), pods: z.array(z.string()).optional() }),
      ),
      groups: z
        .array(
          z.object({
            holds: heldVersion,
            status: z.enum([
              'current',
              'stale',
              'converging',
              'uncertain',
              'notStarted',
              'unaffected',
            ]),
            pods: z.array(z.string()),
            staleSince: z.string().optional(),
          }),
        )
        .describe(
          "The workload's pods grouped by the Secret version they hold",
        ),
      podsFailure: z
        .object(failure)
        .optional()
        .describe(
          'Set when the pods could not be read: their versions are unknown',
        ),
    }),
  ),
  discoveryFailures: z.array(discoveryFailure),
  summary: z.object({
    pods: z.number(),
    current: z.number(),
    stale: z.number(),
    converging: z.number(),
    uncertain: z.number(),
    notStarted: z.number(),
    unaffected: z.number(),
    staleVersions: z.array(z.number()),
    olderThanHistory: z.number(),
    unreadWorkloads: z.number(),
    allCurrent: z
      .boolean()
      .describe('Every pod that reads the Secret holds the live version'),
    message: z.string(),
  }),
});

export const keyDiffEntry = z.object({
  key: z.string(),
  change: z.enum(['added', 'removed', 'changed', 'unchanged']),
  kind: z.enum(['text', 'binary']),
});

/** A side of a diff: a version number, or the live Secret. */
export const diffSide = z
  .union([z.number().int().positive(), z.literal('live')])
  .describe('A version number from the version list, or "live"');
