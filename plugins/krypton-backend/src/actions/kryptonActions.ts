import {
  BackstageCredentials,
  BackstageUserPrincipal,
} from '@backstage/backend-plugin-api';
import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  kryptonActionsReadPermission,
  kryptonActionsWritePermission,
} from '@krypton/plugin-krypton-common';
import {
  CHANGE_COMMENT_MAX,
  DiffSide,
  KryptonError,
  keyDiff,
} from '@krypton/core';
import { KryptonServices, SecretTarget } from '../services';
import { toActionError } from './errors';
import {
  changeRequest,
  consumersResult,
  diffSide,
  keyDiffEntry,
  restartResult,
  secretRef,
  secretListItem,
  secretSummary,
  versionSummary,
} from './schemas';

const ACTIONS_NEED_A_USER = "Krypton's actions act for a signed-in user.";

/**
 * The user an action acts for; a service or an anonymous caller has no Secrets to act on. A
 * KryptonError, so that `translated` answers it as the 403 it is.
 */
function userCredentials(
  credentials: BackstageCredentials,
): BackstageCredentials<BackstageUserPrincipal> {
  const principal = credentials.principal as { type?: unknown };
  if (principal.type !== 'user') {
    throw new KryptonError('forbidden', ACTIONS_NEED_A_USER);
  }
  return credentials as BackstageCredentials<BackstageUserPrincipal>;
}

function targetOf(
  credentials: BackstageCredentials,
  input: { cluster?: string; namespace: string },
): SecretTarget {
  return {
    credentials: userCredentials(credentials),
    cluster: input.cluster,
    namespace: input.namespace,
  };
}

/** Runs a service call, answering Krypton's refusals as the registry's own errors. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toActionError(err);
  }
}

const READ_ONLY = { readOnly: true, idempotent: true, destructive: false };

/**
 * Krypton's operations for the actions registry (and MCP through it). Each runs through the same
 * service as its route, with the same gates and audit. None accepts or returns a Secret value:
 * outputs are parsed with explicit schemas that name no value field, and the diff compares values
 * inside the backend and reports only which keys changed.
 */
export function registerKryptonActions(
  registry: ActionsRegistryService,
  services: KryptonServices,
) {
  registry.register({
    name: 'list-secrets',
    title: 'List Secrets',
    description:
      "Lists the Secrets of a namespace that the user may see, with their metadata and key counts (never key names or values: the list never reads them). History snapshots are never listed. get-secret-summary gives one Secret's key names and immutability.",
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z =>
        z.object({
          cluster: secretRef.cluster,
          namespace: secretRef.namespace,
          labelSelector: z
            .string()
            .optional()
            .describe('A Kubernetes label selector, such as app=payments'),
        }),
      output: z => z.object({ items: z.array(secretListItem) }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => ({
        output: {
          items: await services.secrets.list(targetOf(credentials, input), {
            labelSelector: input.labelSelector,
          }),
        },
      })),
  });

  registry.register({
    name: 'get-secret-summary',
    title: "Get a Secret's summary",
    description:
      "A Secret's metadata: type, version, description, access rules and key names (never values).",
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z => z.object(secretRef),
      output: z => z.object({ secret: secretSummary }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => ({
        output: {
          secret: await services.secrets.summary(
            targetOf(credentials, input),
            input.name,
          ),
        },
      })),
  });

  registry.register({
    name: 'list-secret-versions',
    title: "List a Secret's versions",
    description:
      'The retained versions of a Secret, newest first: when and by whom each was saved, and its key names (never values). A version number is what restore-secret-version takes.',
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z => z.object(secretRef),
      output: z => z.object({ items: z.array(versionSummary) }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => ({
        output: {
          items: await services.history.versions(
            targetOf(credentials, input),
            input.name,
          ),
        },
      })),
  });

  registry.register({
    name: 'diff-secret-versions',
    title: 'Compare two versions of a Secret',
    description:
      "Which keys were added, removed, changed or left unchanged between two versions of a Secret, or a version and the live Secret. Values are compared inside Krypton and never returned; it needs the right to reveal the Secret's values, and is audited as reading them.",
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z =>
        z.object({
          ...secretRef,
          from: diffSide,
          to: diffSide,
        }),
      output: z =>
        z.object({
          entries: z.array(keyDiffEntry),
          counts: z.object({
            added: z.number(),
            removed: z.number(),
            changed: z.number(),
            unchanged: z.number(),
          }),
        }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => {
        const target = targetOf(credentials, input);
        const side = async (which: number | 'live'): Promise<DiffSide> => {
          const values =
            which === 'live'
              ? await services.secrets.get(target, input.name)
              : await services.history.version(
                  target,
                  input.name,
                  String(which),
                );
          return {
            keys: values.keys,
            binaryKeys: values.binaryKeys,
            values: { data: values.data, binaryData: values.binaryData },
          };
        };
        const diff = keyDiff(await side(input.from), await side(input.to));
        return {
          output: {
            entries: diff.entries.map(({ key, change, kind }) => ({
              key,
              // Both sides carry values, so no key is merely "present".
              change: change === 'present' ? 'changed' : change,
              kind,
            })),
            counts: {
              added: diff.counts.added,
              removed: diff.counts.removed,
              changed: diff.counts.changed,
              unchanged: diff.counts.unchanged,
            },
          },
        };
      }),
  });

  registry.register({
    name: 'list-secret-consumers',
    title: "List a Secret's consumers",
    description:
      'A dry run of restart-secret-consumers: the Deployments, StatefulSets and DaemonSets that reference the Secret and how, without changing anything; and for each, its rollout and its pods grouped by the version of the Secret they hold (summary.allCurrent: every pod is on the live version).',
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z => z.object(secretRef),
      output: () => consumersResult,
    },
    action: async ({ input, credentials }) =>
      translated(async () => {
        const result = await services.restart.consumerVersions(
          targetOf(credentials, input),
          input.name,
        );
        // The groups name every pod; each pod's containers stay with the route.
        const workloads = result.workloads.map(({ pods: _pods, ...w }) => w);
        return { output: { ...result, workloads } };
      }),
  });

  registry.register({
    name: 'get-last-restart',
    title: "Get a Secret's last restart result",
    description:
      'The result of the last restart-consumers request for the live Secret, with who asked and when; null when there was none.',
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z => z.object(secretRef),
      output: z =>
        z.object({
          last: z
            .object({
              result: restartResult,
              requestedBy: z.string(),
              requestedAt: z.string(),
            })
            .nullable(),
        }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => ({
        output: {
          last: await services.restart.last(
            targetOf(credentials, input),
            input.name,
          ),
        },
      })),
  });

  registry.register({
    name: 'restore-secret-version',
    title: 'Restore a version of a Secret',
    description:
      "Makes a retained version the live Secret's data again; the current state is saved to history first. Send the live resourceVersion you read (get-secret-summary): if the Secret changed since, the restore is refused with a conflict and nothing changes. Where changes to the Secret need approval (get-secret-summary's approval), nothing changes either: the output's changeRequest is the request that now waits for people to approve it, which no action can do.",
    visibilityPermission: kryptonActionsWritePermission,
    attributes: { readOnly: false, idempotent: false, destructive: true },
    schema: {
      input: z =>
        z.object({
          ...secretRef,
          version: z
            .number()
            .int()
            .positive()
            .describe('The version to restore'),
          resourceVersion: z
            .string()
            .describe(
              "The live Secret's metadata.resourceVersion that you read",
            ),
          reason: z
            .string()
            .max(CHANGE_COMMENT_MAX)
            .optional()
            .describe(
              'Why, for the approvers, where the change needs approval',
            ),
        }),
      output: z =>
        z.object({
          secret: secretSummary
            .optional()
            .describe('The Secret as restored, when it was'),
          changeRequest: changeRequest
            .optional()
            .describe('The change request made instead, where one is needed'),
        }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => {
        const out = await services.history.restore(
          targetOf(credentials, input),
          input.name,
          {
            version: input.version,
            resourceVersion: input.resourceVersion,
            ...(input.reason !== undefined
              ? { changeReason: input.reason }
              : {}),
          },
        );
        return {
          output:
            'changeRequest' in out
              ? { changeRequest: out.changeRequest }
              : { secret: out },
        };
      }),
  });

  registry.register({
    name: 'list-change-requests',
    title: 'List change requests',
    description:
      "A Secret's change requests, newest first (with namespace and name), or without them the requests that wait for the user's approval: who asked, why, what (never values) and where each stands. Only people decide on them, in Backstage.",
    visibilityPermission: kryptonActionsReadPermission,
    attributes: READ_ONLY,
    schema: {
      input: z =>
        z.object({
          cluster: secretRef.cluster,
          namespace: secretRef.namespace.optional(),
          name: secretRef.name.optional(),
        }),
      output: z => z.object({ items: z.array(changeRequest) }),
    },
    action: async ({ input, credentials }) =>
      translated(async () => {
        const { cluster, namespace, name } = input;
        if ((namespace === undefined) !== (name === undefined))
          throw new KryptonError(
            'invalid_request',
            "Give both namespace and name for one Secret's requests, or neither for those waiting for you.",
          );
        const items =
          namespace !== undefined && name !== undefined
            ? await services.changeRequests.list(
                targetOf(credentials, { cluster, namespace }),
                name,
              )
            : await services.changeRequests.waiting({
                credentials: userCredentials(credentials),
                cluster,
              });
        return { output: { items } };
      }),
  });

  registry.register({
    name: 'restart-secret-consumers',
    title: "Restart a Secret's consumers",
    description:
      'Requests a rollout of every Deployment, StatefulSet and DaemonSet that references the Secret, as the portal does. The result says which were requested and which failed.',
    visibilityPermission: kryptonActionsWritePermission,
    attributes: { readOnly: false, idempotent: false, destructive: true },
    schema: {
      input: z => z.object(secretRef),
      output: () => restartResult,
    },
    action: async ({ input, credentials }) =>
      translated(async () => ({
        output: await services.restart.restart(
          targetOf(credentials, input),
          input.name,
        ),
      })),
  });
}
