import { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import {
  TaskSecrets,
  createTemplateAction,
} from '@backstage/plugin-scaffolder-node';
import { CreateSecretRequest, SecretWriteAnswer } from '@krypton/core';

/**
 * The services that {@link createKryptonSecretCreateAction} calls Krypton with.
 *
 * @public
 */
export interface KryptonSecretCreateActionOptions {
  /** Finds Krypton's backend: the action calls its HTTP API, as the portal does. */
  discovery: DiscoveryService;
  /** Issues the token that carries the task's initiator to Krypton. */
  auth: AuthService;
}

const ACTION_ID = 'krypton:secret:create';

/**
 * Secrets of the task that the scaffolder adds itself: the initiator's token and credentials. A
 * template may not store them in a Secret.
 */
function isReservedSecretName(name: string): boolean {
  return name === 'backstageToken' || name.startsWith('__');
}

/** The values of the new Secret, read from the task's secrets by their names. */
function valuesFrom(
  mapping: Record<string, string>,
  secrets: TaskSecrets | undefined,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(mapping).map(([key, secretName]) => {
      if (isReservedSecretName(secretName)) {
        throw new InputError(
          `Key "${key}" names the template secret "${secretName}", which the scaffolder reserves for the user's credentials.`,
        );
      }
      const value =
        secrets && Object.hasOwn(secrets, secretName)
          ? secrets[secretName]
          : undefined;
      if (typeof value !== 'string') {
        throw new InputError(
          `Key "${key}" needs the template secret "${secretName}", which the task was not given.`,
        );
      }
      return [key, value];
    }),
  );
}

/** The fixed message of a Krypton error answer, without anything else of the answer. */
async function refusalOf(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    const error = (body as { error?: unknown } | null)?.error;
    if (typeof error === 'string') return error;
  } catch {
    // Not JSON: the status says it all.
  }
  return res.statusText || 'no reason given';
}

const EXAMPLE = `steps:
  - id: create-secret
    name: Create the database Secret
    action: krypton:secret:create
    input:
      namespace: \${{ parameters.namespace }}
      name: \${{ parameters.name }}
      description: Credentials of the payments database
      access:
        owners:
          - \${{ user.ref }}
      values:
        DATABASE_PASSWORD: password
`;

/**
 * Creates the scaffolder action `krypton:secret:create`: it creates a Krypton-managed Kubernetes
 * Secret, with its description and access rules, through Krypton's own HTTP API and as the user
 * who runs the template, so that Krypton's permission policy, Kubernetes RBAC or impersonation
 * gates and audit apply exactly as in the portal.
 *
 * @remarks
 *
 * Values never travel through the action's input, which the scaffolder can show in task logs and
 * keeps in the task's spec. `values` maps each key of the Secret to the NAME of one of the task's
 * secrets (for example a parameter with `ui:field: Secret`), whose value the action reads from the
 * task's secrets:
 *
 * ```yaml
 * action: krypton:secret:create
 * input:
 *   namespace: payments
 *   name: payments-db
 *   values:
 *     DATABASE_PASSWORD: password   # the value of secrets.password
 * ```
 *
 * The output holds the Secret's coordinates, version and key names, never a value. The action
 * does nothing in a dry run.
 *
 * @public
 */
export function createKryptonSecretCreateAction(
  options: KryptonSecretCreateActionOptions,
) {
  const { discovery, auth } = options;
  return createTemplateAction({
    id: ACTION_ID,
    description:
      'Creates a Krypton-managed Kubernetes Secret as the user who runs the template. Its values are read from the task secrets named in `values`, never from the input.',
    examples: [
      {
        description:
          'Create a Secret whose DATABASE_PASSWORD is the template secret "password"',
        example: EXAMPLE,
      },
    ],
    supportsDryRun: false,
    schema: {
      input: {
        cluster: z =>
          z
            .string()
            .min(1)
            .optional()
            .describe("Krypton's cluster name; its default cluster if unset"),
        namespace: z => z.string().min(1).describe('The Secret namespace'),
        name: z => z.string().min(1).describe('The Secret name'),
        description: z =>
          z.string().optional().describe('A description of the Secret'),
        type: z =>
          z.string().optional().describe('The Secret type; Opaque if unset'),
        immutable: z =>
          z
            .boolean()
            .optional()
            .describe('Whether Kubernetes refuses changes of the values'),
        access: z =>
          z
            .object({
              owners: z.array(z.string()).optional(),
              editors: z.array(z.string()).optional(),
              viewers: z.array(z.string()).optional(),
            })
            .optional()
            .describe(
              'Access rules: user and group entity refs per role (owners, editors, viewers)',
            ),
        values: z =>
          z
            .record(z.string(), z.string())
            .describe(
              'Each key of the Secret, mapped to the NAME of the task secret that holds its value (not the value)',
            ),
      },
      output: {
        cluster: z => z.string().describe('The cluster of the Secret'),
        namespace: z => z.string().describe('The Secret namespace'),
        name: z => z.string().describe('The Secret name'),
        resourceVersion: z =>
          z.string().describe('The resourceVersion of the created Secret'),
        version: z =>
          z
            .number()
            .nullable()
            .describe("Krypton's version of the Secret: 1 once created"),
        keys: z => z.array(z.string()).describe('The keys of the Secret'),
      },
    },
    async handler(ctx) {
      const { cluster, namespace, name } = ctx.input;
      const target = `${namespace}/${name}`;
      const body: CreateSecretRequest = {
        name,
        type: ctx.input.type,
        immutable: ctx.input.immutable,
        description: ctx.input.description,
        access: ctx.input.access,
        data: valuesFrom(ctx.input.values, ctx.secrets),
      };

      const baseUrl = await discovery.getBaseUrl('krypton');
      const scope = cluster ? `/clusters/${encodeURIComponent(cluster)}` : '';
      const url = `${baseUrl}${scope}/namespaces/${encodeURIComponent(
        namespace,
      )}/secrets`;
      const { token } = await auth.getPluginRequestToken({
        onBehalfOf: await ctx.getInitiatorCredentials(),
        targetPluginId: 'krypton',
      });

      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${token}`,
          },
          body: JSON.stringify(body),
          signal: ctx.signal,
        });
      } catch (err) {
        throw new Error(
          `Could not reach Krypton to create ${target}: ${
            (err as Error)?.message ?? 'unknown error'
          }`,
        );
      }
      if (res.status !== 201) {
        throw new Error(
          `Krypton refused to create ${target}: ${res.status} ${await refusalOf(
            res,
          )}`,
        );
      }

      // The answer can hold the values: only its metadata is kept.
      const created = (await res.json()) as SecretWriteAnswer;
      ctx.output('cluster', created.cluster);
      ctx.output('namespace', created.namespace);
      ctx.output('name', created.name);
      ctx.output('resourceVersion', created.resourceVersion);
      ctx.output('version', created.version);
      // A fresh array of this realm: the templating of later steps refuses foreign prototypes.
      ctx.output('keys', Array.from(created.keys, String));
      ctx.logger.info(
        `Created Secret ${created.namespace}/${created.name} on cluster ${created.cluster} at version ${created.version}`,
      );
    },
  });
}
