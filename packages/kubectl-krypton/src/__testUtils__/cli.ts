import {
  ClusterAdmin,
  IdentityKey,
  TEST_USERS,
  testClusterState,
} from '@krypton/kube-testenv';
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CaptureOptions, CapturedRun, runCaptured } from '../runCaptured';

export type CliAnswer = CapturedRun;
/** As `runCaptured` takes them; `env` adds to a PATH and a HOME without a kubeconfig. */
export type CliOptions = CaptureOptions;

/** The kubeconfig of a test user of the control plane that the test run started. */
export function kubeconfigOf(
  user: Exclude<IdentityKey, 'admin' | 'krypton'>,
): string {
  return testClusterState().identities[user].kubeconfig;
}

/** Runs kubectl krypton in-process, as a test user, in a namespace. */
export async function cli(
  user: Exclude<IdentityKey, 'admin' | 'krypton'>,
  namespace: string,
  args: string[],
  options: CliOptions = {},
): Promise<CliAnswer> {
  const env = { HOME: '/nonexistent', PATH: process.env.PATH, ...options.env };
  // Completion reads the words as typed, so its kubeconfig comes from the environment.
  return args[0] === '__complete'
    ? runCaptured(args, {
        ...options,
        env: { ...env, KUBECONFIG: kubeconfigOf(user) },
      })
    : runCaptured(
        [...args, '--kubeconfig', kubeconfigOf(user), '-n', namespace],
        { ...options, env },
      );
}

type Rule = Record<string, string[]>;

/** The Role's rules that docs/cli.md names, from the file it shows. */
export function cliRules(): Rule[] {
  // The package's own file, read from its source location in the repository.
  // eslint-disable-next-line no-restricted-syntax
  const role = load(
    readFileSync(join(__dirname, '../../rbac.yaml'), 'utf8'),
  ) as {
    rules: Rule[];
  };
  return role.rules;
}

/**
 * Grants a test user the CLI's Role in a namespace, less the verbs named, and waits until the
 * authorizer applies it.
 */
export async function grantCli(
  admin: ClusterAdmin,
  namespace: string,
  user: Exclude<IdentityKey, 'admin' | 'krypton'>,
  without: { resource: string; verb: string }[] = [],
): Promise<void> {
  const rules = cliRules().map(rule => ({
    ...rule,
    verbs: rule.verbs.filter(
      verb =>
        !without.some(
          w => w.verb === verb && rule.resources.includes(w.resource),
        ),
    ),
  }));
  await admin.grant(
    namespace,
    `kubectl-krypton-${user}`,
    { kind: 'User', name: user },
    rules,
  );
  const first = without.length > 0 ? 'get' : 'list';
  await admin.untilAllowed(
    { user: TEST_USERS[user].user, groups: TEST_USERS[user].groups },
    { namespace, verb: first, resource: 'secrets' },
  );
}
