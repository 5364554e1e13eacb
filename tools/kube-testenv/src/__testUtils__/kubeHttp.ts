import { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { ControlPlaneState } from '../controlPlane';

/** What a test needs to call a server as one identity. */
export interface Credentials {
  server: string;
  ca?: Buffer;
  token: string;
}

export interface KubeHttpInit {
  method?: string;
  body?: string;
  /** An array value is sent as one header line per element. */
  headers?: Record<string, string | string[]>;
}

export interface KubeHttpResponse {
  status: number;
  body: string;
}

/** The credentials of one of the launcher's identities, straight to the apiserver. */
export function credentialsOf(
  state: ControlPlaneState,
  key: string,
): Credentials {
  const kc = new KubeConfig();
  kc.loadFromFile(state.identities[key].kubeconfig);
  const token = kc.getCurrentUser()?.token;
  if (!token) throw new Error(`identity ${key} has no token`);
  return { server: state.server, ca: readFileSync(state.caFile), token };
}

/**
 * One request with a bearer token, over HTTP or HTTPS as the server URL says. Node's fetch can
 * neither take a private CA per request nor send a header as several lines, hence node:http.
 */
export function kubeHttp(
  credentials: Credentials,
  path: string,
  init: KubeHttpInit = {},
): Promise<KubeHttpResponse> {
  const url = new URL(path, credentials.server);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: init.method ?? 'GET',
        ca: credentials.ca,
        // A fresh connection per request, so that a connection the fault proxy reset is never
        // reused by a later request.
        agent: false,
        headers: {
          ...init.headers,
          Authorization: `Bearer ${credentials.token}`,
          'Content-Type': 'application/json',
        },
      },
      res => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
