// docs/install.md's snippets for the legacy frontend system. The install test copies this file into the
// fresh app's packages/app/src and type-checks it there against the installed tarballs.
import { Route } from 'react-router-dom';
import { FlatRoutes } from '@backstage/core-app-api';
import { SidebarItem } from '@backstage/core-components';
import { EntityLayout } from '@backstage/plugin-catalog';
import VpnKeyIcon from '@material-ui/icons/VpnKey';
import {
  EntityKryptonContent,
  KryptonPage,
  isKryptonAvailable,
} from '@krypton/plugin-krypton';

// packages/app/src/App.tsx, among the routes
export const routes = (
  <FlatRoutes>
    <Route path="/krypton" element={<KryptonPage />} />
  </FlatRoutes>
);

// packages/app/src/components/catalog/EntityPage.tsx, in an entity page's layout
export const serviceEntityPage = (
  <EntityLayout>
    <EntityLayout.Route path="/krypton" title="Secrets" if={isKryptonAvailable}>
      <EntityKryptonContent />
    </EntityLayout.Route>
  </EntityLayout>
);

// packages/app/src/components/Root/Root.tsx, in the sidebar
export const sidebarItem = (
  <SidebarItem icon={VpnKeyIcon} to="krypton" text="Krypton" />
);
