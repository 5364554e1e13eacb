import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import {
  authProvidersExtensionPoint,
  createProxyAuthProviderFactory,
  createProxyAuthenticator,
} from '@backstage/plugin-auth-node';

/** Like the guest provider's: no credentials, so it is offered in development only. */
const noCredentials = createProxyAuthenticator({
  defaultProfileTransform: async () => ({ profile: {} }),
  initialize: () => undefined,
  authenticate: async () => ({ result: {} }),
});

/**
 * The demo portal's second user: `auth.providers.reviewer.userEntityRef` signs in through the
 * `reviewer` provider as the guest signs in through `guest`, so that two people can take part in
 * one change request. Registered only when the backend runs in development, as the guest
 * provider refuses to run elsewhere.
 */
export const demoReviewerAuthModule = createBackendModule({
  pluginId: 'auth',
  moduleId: 'demo-reviewer-provider',
  register(reg) {
    reg.registerInit({
      deps: {
        providers: authProvidersExtensionPoint,
        config: coreServices.rootConfig,
      },
      async init({ providers, config }) {
        if (process.env.NODE_ENV !== 'development') return;
        const entityRef = config.getString(
          'auth.providers.reviewer.userEntityRef',
        );
        providers.registerProvider({
          providerId: 'reviewer',
          factory: createProxyAuthProviderFactory({
            authenticator: noCredentials,
            signInResolver: async (_info, ctx) =>
              ctx.signInWithCatalogUser({ entityRef }),
          }),
        });
      },
    });
  },
});
