import { binDir, testClusterState } from '@krypton/kube-testenv';
import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';

/** An answer's headers and whole body. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends one request on a keep-alive agent and reads the whole answer; fails on another status. */
export function exchange(
  url: string,
  options: {
    agent: http.Agent;
    method?: string;
    headers?: Record<string, string | string[]>;
    body?: string;
    expect: number | number[];
  },
): Promise<Answer> {
  const lib = url.startsWith('https:') ? https : http;
  const expected = ([] as number[]).concat(options.expect);
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        agent: options.agent,
        method: options.method ?? 'GET',
        headers: {
          Accept: 'application/json',
          ...(options.body ? { 'Content-Type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (!expected.includes(res.statusCode ?? 0)) {
            reject(
              new Error(
                `${options.method ?? 'GET'} ${url}: ${
                  res.statusCode
                } ${body.subarray(0, 500)}`,
              ),
            );
          } else
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
            });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends one request and reads the whole body; fails on another status. */
export async function send(
  url: string,
  options: Parameters<typeof exchange>[1],
): Promise<Buffer> {
  return (await exchange(url, options)).body;
}

/** Sends a JSON request and parses the JSON answer. */
export async function sendJson<T>(
  url: string,
  options: Parameters<typeof send>[1],
): Promise<T> {
  return JSON.parse((await send(url, options)).toString('utf8')) as T;
}

/**
 * A raw Kubernetes list read to its end as a client pages it: each page's JSON body is handed to
 * `onPage`, and the `continue` token of its metadata is followed. Answers how many requests it
 * sent.
 */
export async function readRawList(
  url: string,
  query: URLSearchParams,
  options: { agent: http.Agent; headers: Record<string, string | string[]> },
  onPage: (list: unknown, body: Buffer) => void,
): Promise<number> {
  let continueToken: string | undefined;
  let requests = 0;
  do {
    const pageQuery = new URLSearchParams(query);
    if (continueToken) pageQuery.set('continue', continueToken);
    const body = await send(`${url}?${pageQuery}`, { ...options, expect: 200 });
    const list = JSON.parse(body.toString('utf8')) as {
      metadata?: { continue?: string };
    };
    onPage(list, body);
    requests++;
    continueToken = list.metadata?.continue || undefined;
  } while (continueToken);
  return requests;
}

/** Runs `items` through `run` with at most `limit` calls at once. */
export async function bounded<T>(
  items: T[],
  limit: number,
  run: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await run(item);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
}

/** Runs a program to its end and returns its standard output; fails on a non-zero exit. */
export function runProgram(
  file: string,
  args: string[],
  options: { input?: string } = {},
): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', c => out.push(c));
    child.stderr!.on('data', c => {
      stderr = (stderr + String(c)).slice(-200_000);
    });
    child.on('error', reject);
    child.on('close', code => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
      else
        reject(
          new Error(
            `${file} ${args.join(' ')} exited with ${code}: ${stderr.slice(
              -2000,
            )}`,
          ),
        );
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/**
 * kubectl from the same Kubernetes release as the control plane, as the admin of the bench's
 * control plane, with a discovery cache of its own (warm after the first call, as a user's is).
 */
export function kubectl(cacheDir: string) {
  const file = join(binDir(), 'kubectl');
  const kubeconfig = testClusterState().identities.admin.kubeconfig;
  return (args: string[]) =>
    runProgram(file, [
      '--kubeconfig',
      kubeconfig,
      '--cache-dir',
      cacheDir,
      ...args,
    ]);
}
