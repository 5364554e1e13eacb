import {
  DEFAULT_ANNOTATION_PREFIX,
  EngineSettings,
  KryptonEngines,
  LiveGate,
  RBAC_ONLY_GATE,
  RestKubeGateway,
  createEngines,
  parseHistoryLimit,
  parseManagedOnly,
  reviewedActor,
} from '@krypton/core';
import { ParsedFlags, parseTimeout } from './cli/args';
import { CliError, FailureContext } from './cli/errors';
import { CliIo } from './cli/io';
import { KubeTarget, resolveTarget } from './kube/kubeconfig';
import { CliTransport, cliTransport } from './kube/send';
import { VERSION } from './version';

/** snapshot-by of a version saved from the terminal when the API server does not say who. */
export const KUBECTL_ACTOR = 'kubectl';

/** One command's connection and engines. */
export interface Session {
  target: KubeTarget;
  transport: CliTransport;
  krypton: KryptonEngines;
  gate: LiveGate;
  settings: EngineSettings;
  /** The failure context for messages, with what this session learned. */
  context(name?: string): FailureContext;
}

const PREFIX_PATTERN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/**
 * The settings that a Krypton server reads from its environment, read from the user's: where a
 * cluster's Krypton runs with another prefix or history limit, the terminal must use the same.
 */
export function cliSettings(env: NodeJS.ProcessEnv): EngineSettings {
  const annotationPrefix =
    env.KRYPTON_ANNOTATION_PREFIX ?? DEFAULT_ANNOTATION_PREFIX;
  if (!PREFIX_PATTERN.test(annotationPrefix))
    throw new CliError(
      'usage',
      'KRYPTON_ANNOTATION_PREFIX must be a DNS subdomain such as krypton.io.',
    );
  const historyLimit = parseHistoryLimit(env.KRYPTON_HISTORY_LIMIT);
  if (!historyLimit.ok) throw new CliError('usage', `${historyLimit.error}.`);
  return {
    annotationPrefix,
    managedOnly: parseManagedOnly(env.KRYPTON_MANAGED_ONLY),
    historyLimit,
  };
}

export function openSession(flags: ParsedFlags, io: CliIo): Session {
  const settings = cliSettings(io.env);
  const target = resolveTarget(flags, io.env);
  const transport = cliTransport(target, {
    deadlineMs: parseTimeout(flags['request-timeout']),
    userAgent: `kubectl-krypton/${VERSION}`,
    stdinIsTerminal: io.stdinIsTerminal,
    env: io.env,
  });
  const gateway = new RestKubeGateway(transport.send);
  // One identity, the user's: every call, history and workload patches included, is theirs, as in
  // the server's impersonation mode, so nothing needs a dry run first.
  const krypton = createEngines({
    mode: 'impersonation',
    gateways: { user: gateway, krypton: gateway },
    cluster: target.contextName,
    settings,
    actor: reviewedActor(KUBECTL_ACTOR, transport.send),
  });
  return {
    target,
    transport,
    krypton,
    gate: RBAC_ONLY_GATE,
    settings,
    context: name => ({
      namespace: target.namespace,
      name,
      refusedCredentials: transport.refusedCredentials,
    }),
  };
}
