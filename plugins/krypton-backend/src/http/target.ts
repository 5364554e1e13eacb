import { Request } from 'express';
import { CallerInput, SecretTarget } from '../services';
import { credentialsOf } from './authGate';

/** The caller of a route: the gate's credentials, the path's cluster, and the request to audit. */
export function callerOf(req: Request): CallerInput {
  return {
    credentials: credentialsOf(req),
    cluster: req.params.cluster,
    request: req,
  };
}

/** The caller of a route under /namespaces/:namespace. */
export function targetOf(req: Request): SecretTarget {
  return { ...callerOf(req), namespace: req.params.namespace };
}
