import { CORE_SCHEMA, load as parseYaml } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { CliError } from '../cli/errors';

/** The flags that choose a kubeconfig entry, as kubectl names them. */
export interface KubeconfigFlags {
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  user?: string;
  namespace?: string;
}

/** An exec credential plugin (client.authentication.k8s.io), as the kubeconfig describes it. */
export interface ExecConfig {
  apiVersion: string;
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  installHint?: string;
  provideClusterInfo: boolean;
  interactiveMode: 'Never' | 'IfAvailable' | 'Always';
}

/** Where and as whom to connect: one context of the merged kubeconfig, its files read. */
export interface KubeTarget {
  contextName: string;
  clusterName: string;
  server: string;
  namespace: string;
  /** PEM; absent trusts the system's roots. */
  ca?: Buffer;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  token?: string;
  /** A token file, read again before each connection (projected tokens rotate). */
  tokenFile?: string;
  clientCert?: Buffer;
  clientKey?: Buffer;
  exec?: ExecConfig;
}

type Entry = Record<string, unknown>;

interface Named {
  /** The file that defined it: relative paths in it resolve against this file's directory. */
  file: string;
  value: Entry;
}

interface Merged {
  currentContext?: string;
  clusters: Map<string, Named>;
  users: Map<string, Named>;
  contexts: Map<string, Named>;
}

/** A kubeconfig file larger than this is not one; reading it would only stall. */
const MAX_KUBECONFIG_BYTES = 4 * 1024 * 1024;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(entry: Entry, key: string, where: string): string | undefined {
  const value = entry[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new CliError('config', `${where}: ${key} must be a string.`);
  return value;
}

/**
 * The files kubectl reads, in its order: --kubeconfig alone (it must exist), else each path of
 * KUBECONFIG that exists, else ~/.kube/config.
 */
export function kubeconfigPaths(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): { paths: string[]; explicit: boolean } {
  if (flag) return { paths: [resolve(flag)], explicit: true };
  const list = (env.KUBECONFIG ?? '')
    .split(delimiter)
    .filter(path => path !== '');
  if (list.length > 0)
    return { paths: [...new Set(list.map(p => resolve(p)))], explicit: false };
  return {
    paths: [join(env.HOME || homedir(), '.kube', 'config')],
    explicit: false,
  };
}

function readKubeconfig(path: string, explicit: boolean): Entry | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (err) {
    if (!explicit && (err as NodeJS.ErrnoException).code === 'ENOENT')
      return undefined;
    throw new CliError(
      'config',
      `Cannot read the kubeconfig ${path} (${
        (err as NodeJS.ErrnoException).code ?? 'unreadable'
      }).`,
    );
  }
  if (raw.length > MAX_KUBECONFIG_BYTES)
    throw new CliError(
      'config',
      `The kubeconfig ${path} is larger than 4 MiB; it is not a kubeconfig.`,
    );
  let parsed: unknown;
  try {
    // The core schema builds plain data only: no timestamps, no binary, no merge keys.
    parsed = parseYaml(raw.toString('utf8'), {
      filename: path,
      schema: CORE_SCHEMA,
    });
  } catch {
    throw new CliError(
      'config',
      `The kubeconfig ${path} is not valid YAML; check it with kubectl config view.`,
    );
  }
  if (parsed === undefined || parsed === null) return {};
  if (!isEntry(parsed))
    throw new CliError('config', `The kubeconfig ${path} is not a mapping.`);
  return parsed;
}

function mergeNamed(
  into: Map<string, Named>,
  list: unknown,
  field: 'cluster' | 'user' | 'context',
  file: string,
) {
  if (list === undefined || list === null) return;
  if (!Array.isArray(list))
    throw new CliError('config', `${file}: ${field}s must be a list.`);
  for (const item of list) {
    if (!isEntry(item) || typeof item.name !== 'string' || item.name === '')
      throw new CliError(
        'config',
        `${file}: every entry of ${field}s needs a name.`,
      );
    // kubectl's merge: the first file that names an entry wins it whole.
    if (into.has(item.name)) continue;
    const value = item[field];
    into.set(item.name, { file, value: isEntry(value) ? value : {} });
  }
}

function merge(paths: string[], explicit: boolean): Merged {
  const merged: Merged = {
    clusters: new Map(),
    users: new Map(),
    contexts: new Map(),
  };
  for (const path of paths) {
    const config = readKubeconfig(path, explicit);
    if (!config) continue;
    const current = text(config, 'current-context', path);
    merged.currentContext ??= current;
    mergeNamed(merged.clusters, config.clusters, 'cluster', path);
    mergeNamed(merged.users, config.users, 'user', path);
    mergeNamed(merged.contexts, config.contexts, 'context', path);
  }
  return merged;
}

function fileRelativeTo(named: Named, path: string): string {
  return isAbsolute(path) ? path : join(dirname(named.file), path);
}

function readBytes(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new CliError(
      'config',
      `Cannot read the ${what} ${path} (${
        (err as NodeJS.ErrnoException).code ?? 'unreadable'
      }).`,
    );
  }
}

function dataOrFile(
  named: Named,
  where: string,
  dataKey: string,
  fileKey: string,
  what: string,
): Buffer | undefined {
  const data = text(named.value, dataKey, where);
  if (data !== undefined) return Buffer.from(data, 'base64');
  const file = text(named.value, fileKey, where);
  return file === undefined
    ? undefined
    : readBytes(fileRelativeTo(named, file), what);
}

function execConfig(named: Named, where: string): ExecConfig | undefined {
  const exec = named.value.exec;
  if (exec === undefined || exec === null) return undefined;
  if (!isEntry(exec))
    throw new CliError('config', `${where}: exec must be a mapping.`);
  const command = text(exec, 'command', `${where} exec`);
  if (!command) throw new CliError('config', `${where}: exec needs a command.`);
  const args = exec.args ?? [];
  if (!Array.isArray(args) || args.some(a => typeof a !== 'string'))
    throw new CliError('config', `${where}: exec args must be strings.`);
  const envList = exec.env ?? [];
  if (!Array.isArray(envList))
    throw new CliError('config', `${where}: exec env must be a list.`);
  const env = envList.map(item => {
    if (
      !isEntry(item) ||
      typeof item.name !== 'string' ||
      typeof item.value !== 'string'
    )
      throw new CliError(
        'config',
        `${where}: each exec env entry needs a name and a value.`,
      );
    return { name: item.name, value: item.value };
  });
  const mode = exec.interactiveMode ?? 'IfAvailable';
  if (mode !== 'Never' && mode !== 'IfAvailable' && mode !== 'Always')
    throw new CliError(
      'config',
      `${where}: exec interactiveMode must be Never, IfAvailable or Always.`,
    );
  return {
    apiVersion:
      text(exec, 'apiVersion', `${where} exec`) ??
      'client.authentication.k8s.io/v1',
    // A bare name is looked up on PATH, as kubectl does; a path is relative to the kubeconfig.
    command: command.includes('/') ? fileRelativeTo(named, command) : command,
    args: args as string[],
    env,
    installHint: text(exec, 'installHint', `${where} exec`),
    provideClusterInfo: exec.provideClusterInfo === true,
    interactiveMode: mode,
  };
}

/**
 * The connection that kubectl would make with these flags and this environment: the merged
 * kubeconfig's context (or --context), its cluster and user (or --cluster, --user) and namespace
 * (or -n). Only what Krypton's requests need is supported; any other way to authenticate is
 * refused by name rather than ignored.
 */
export function resolveTarget(
  flags: KubeconfigFlags,
  env: NodeJS.ProcessEnv,
): KubeTarget {
  const { paths, explicit } = kubeconfigPaths(flags.kubeconfig, env);
  const merged = merge(paths, explicit);
  const contextName = flags.context ?? merged.currentContext;
  if (!contextName)
    throw new CliError(
      'config',
      'No current context in the kubeconfig: pass --context, or set one with kubectl config use-context.',
    );
  const context = merged.contexts.get(contextName);
  if (!context && !(flags.cluster && flags.user))
    throw new CliError(
      'config',
      `The kubeconfig has no context named "${contextName}".`,
    );
  const clusterName =
    flags.cluster ??
    (context ? text(context.value, 'cluster', `context ${contextName}`) : '');
  const userName =
    flags.user ??
    (context ? text(context.value, 'user', `context ${contextName}`) : '');
  const cluster = clusterName ? merged.clusters.get(clusterName) : undefined;
  if (!clusterName || !cluster)
    throw new CliError(
      'config',
      `The kubeconfig has no cluster named "${clusterName ?? ''}".`,
    );
  const clusterWhere = `cluster ${clusterName}`;
  const server = text(cluster.value, 'server', clusterWhere);
  if (!server)
    throw new CliError('config', `The ${clusterWhere} has no server.`);
  if (!server.startsWith('https://'))
    throw new CliError(
      'config',
      `The ${clusterWhere} server is not https://; kubectl krypton sends credentials over TLS only.`,
    );
  if (text(cluster.value, 'proxy-url', clusterWhere))
    throw new CliError(
      'config',
      `The ${clusterWhere} uses proxy-url, which kubectl krypton does not support.`,
    );
  const namespace =
    flags.namespace ??
    (context
      ? text(context.value, 'namespace', `context ${contextName}`)
      : '') ??
    'default';
  const target: KubeTarget = {
    contextName,
    clusterName,
    server: server.replace(/\/+$/, ''),
    namespace: namespace || 'default',
    ca: dataOrFile(
      cluster,
      clusterWhere,
      'certificate-authority-data',
      'certificate-authority',
      'certificate authority',
    ),
    insecureSkipTlsVerify: cluster.value['insecure-skip-tls-verify'] === true,
    tlsServerName: text(cluster.value, 'tls-server-name', clusterWhere),
  };
  const user = userName ? merged.users.get(userName) : undefined;
  if (userName && !user)
    throw new CliError(
      'config',
      `The kubeconfig has no user named "${userName}".`,
    );
  if (user) {
    const where = `user ${userName}`;
    if (user.value['auth-provider'] !== undefined)
      throw new CliError(
        'config',
        `The ${where} uses an auth-provider, which kubectl krypton does not support; use an exec credential plugin (kubectl's own auth-providers are removed too).`,
      );
    if (user.value.username !== undefined || user.value.password !== undefined)
      throw new CliError(
        'config',
        `The ${where} uses basic authentication, which Kubernetes no longer serves; use a token, a client certificate or an exec plugin.`,
      );
    if (user.value.as !== undefined || user.value['as-groups'] !== undefined)
      throw new CliError(
        'config',
        `The ${where} impersonates another user, which kubectl krypton does not do: snapshot-by would name the wrong person.`,
      );
    target.token = text(user.value, 'token', where);
    const tokenFile = text(user.value, 'tokenFile', where);
    if (tokenFile) target.tokenFile = fileRelativeTo(user, tokenFile);
    target.clientCert = dataOrFile(
      user,
      where,
      'client-certificate-data',
      'client-certificate',
      'client certificate',
    );
    target.clientKey = dataOrFile(
      user,
      where,
      'client-key-data',
      'client-key',
      'client key',
    );
    if (Boolean(target.clientCert) !== Boolean(target.clientKey))
      throw new CliError(
        'config',
        `The ${where} has a client certificate without its key, or a key without its certificate.`,
      );
    target.exec = execConfig(user, where);
  }
  return target;
}
