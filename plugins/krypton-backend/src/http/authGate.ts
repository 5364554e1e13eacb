import {
  BackstageCredentials,
  BackstageUserPrincipal,
  HttpAuthService,
} from '@backstage/backend-plugin-api';
import { KryptonError, messages } from '@krypton/core';
import { Request, RequestHandler } from 'express';
import { timed } from '../diagnostics/serverTiming';

const credentialsByRequest = new WeakMap<
  Request,
  BackstageCredentials<BackstageUserPrincipal>
>();

/**
 * The one authentication gate of the plugin's router: every request that reaches a route behind it
 * carries a Backstage user. A route added later cannot forget to authenticate, because it cannot
 * reach a request's credentials any other way.
 */
export function authGate(httpAuth: HttpAuthService): RequestHandler {
  return async (req, _res, next) => {
    try {
      credentialsByRequest.set(
        req,
        await timed('auth', () =>
          httpAuth.credentials(req, { allow: ['user'] }),
        ),
      );
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The credentials that the gate established for this request. */
export function credentialsOf(
  req: Request,
): BackstageCredentials<BackstageUserPrincipal> {
  const credentials = credentialsByRequest.get(req);
  if (!credentials)
    throw new KryptonError('unauthenticated', messages.unauthenticated);
  return credentials;
}
