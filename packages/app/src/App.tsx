import { createApp } from '@backstage/frontend-defaults';
import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { SignInPageBlueprint } from '@backstage/plugin-app-react';
import { SignInPage } from '@backstage/core-components';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import signalsPlugin from '@backstage/plugin-signals/alpha';
import kryptonPlugin from '@krypton/plugin-krypton/alpha';

// Guest sign-in: the demo portal has no identity provider. Krypton maps the guest's Backstage
// refs to Kubernetes identities like any other user's.
const signInModule = createFrontendModule({
  pluginId: 'app',
  extensions: [
    SignInPageBlueprint.make({
      params: {
        loader: async () => props =>
          <SignInPage {...props} providers={['guest']} />,
      },
    }),
  ],
});

export default createApp({
  // The signals plugin pushes Krypton's "this Secret changed" to open pages, instead of polling.
  features: [catalogPlugin, signalsPlugin, kryptonPlugin, signInModule],
});
