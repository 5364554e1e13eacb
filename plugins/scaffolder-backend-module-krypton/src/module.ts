import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { createKryptonSecretCreateAction } from './actions/createSecret';

/**
 * The scaffolder module that adds Krypton's actions: `krypton:secret:create`.
 *
 * @public
 */
export const scaffolderModuleKrypton = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'krypton',
  register(reg) {
    reg.registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        discovery: coreServices.discovery,
        auth: coreServices.auth,
      },
      async init({ scaffolder, discovery, auth }) {
        scaffolder.addActions(
          createKryptonSecretCreateAction({ discovery, auth }),
        );
      },
    });
  },
});
