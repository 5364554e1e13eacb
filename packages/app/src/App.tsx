import { createApp } from '@backstage/frontend-defaults';
import {
  ApiBlueprint,
  createFrontendModule,
  discoveryApiRef,
} from '@backstage/frontend-plugin-api';
import { SignInPageBlueprint } from '@backstage/plugin-app-react';
import { SignInPage } from '@backstage/core-components';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import signalsPlugin from '@backstage/plugin-signals/alpha';
import kryptonPlugin from '@krypton/plugin-krypton/alpha';
import { DemoUserAuth, reviewerAuthApiRef } from './demoUserAuth';

const reviewerAuthApi = ApiBlueprint.make({
  name: 'reviewer-auth',
  params: defineParams =>
    defineParams({
      api: reviewerAuthApiRef,
      deps: { discoveryApi: discoveryApiRef },
      factory: ({ discoveryApi }) => new DemoUserAuth(discoveryApi, 'reviewer'),
    }),
});

// Two demo users and no identity provider: Guest (user:default/guest) and Reviewer
// (user:default/reviewer), both of team-a, so that one can approve what the other requests.
// Krypton maps their Backstage refs to Kubernetes identities like any other user's.
const signInModule = createFrontendModule({
  pluginId: 'app',
  extensions: [
    reviewerAuthApi,
    SignInPageBlueprint.make({
      params: {
        loader: async () => props =>
          (
            <SignInPage
              {...props}
              providers={[
                'guest',
                {
                  id: 'reviewer',
                  title: 'Reviewer',
                  message:
                    'Sign in as the demo reviewer, user:default/reviewer of team-a.',
                  apiRef: reviewerAuthApiRef,
                },
              ]}
            />
          ),
      },
    }),
  ],
});

export default createApp({
  // The signals plugin pushes Krypton's "this Secret changed" to open pages, instead of polling.
  features: [catalogPlugin, signalsPlugin, kryptonPlugin, signInModule],
});
