// The closest Headlamp this repository can build (see README.md): Headlamp's own frontend
// modules from @kinvolk/headlamp-plugin's lib/, put together as Headlamp's App does, with only
// the Secret details route. The plugin is found, fetched and run by Headlamp's own loader
// (lib/plugin/Plugins: GET /plugins, then <path>/main.js under window.pluginLib), and its
// registrations reach the details view through Headlamp's own store.
import Plugins from '@kinvolk/headlamp-plugin/lib/plugin/Plugins';
import store from '@kinvolk/headlamp-plugin/lib/redux/stores/store';
import { useTypedSelector } from '@kinvolk/headlamp-plugin/lib/redux/hooks';
import { queryClient } from '@kinvolk/headlamp-plugin/lib/lib/queryClient';
import { createMuiTheme } from '@kinvolk/headlamp-plugin/lib/lib/themes';
import { lightTheme } from '@kinvolk/headlamp-plugin/lib/components/App/defaultAppThemes';
import SecretDetails from '@kinvolk/headlamp-plugin/lib/components/secret/Details';
import '@kinvolk/headlamp-plugin/lib/i18n/config';
import arrowLeft from '@iconify/icons-mdi/arrow-left';
import deleteIcon from '@iconify/icons-mdi/delete';
import pencil from '@iconify/icons-mdi/pencil';
import { addIcon } from '@iconify/react';
import CssBaseline from '@mui/material/CssBaseline';
import Container from '@mui/material/Container';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, Route, Switch } from 'react-router-dom';

// Headlamp names its icons ('mdi:pencil') and Iconify fetches them from its web API when drawn;
// the test's Chromium has no network, so the ones of the details view's header come from the
// tooling's @iconify/icons-mdi instead, or Edit and Delete would be drawn as empty buttons.
addIcon('mdi:arrow-left', arrowLeft);
addIcon('mdi:delete', deleteIcon);
addIcon('mdi:pencil', pencil);

/** Headlamp's path of a Secret's details (lib/router: `secret`, under the cluster prefix). */
const SECRET_ROUTE = '/c/:cluster/secrets/:namespace/:name';

/** As Headlamp's Layout does: no route renders before the plugins have registered. */
function Routes() {
  const loaded = useTypedSelector(state => state.plugins.loaded);
  if (!loaded) return null;
  return (
    <Switch>
      <Route path={SECRET_ROUTE} exact>
        <SecretDetails />
      </Route>
    </Switch>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root');
createRoot(root).render(
  <Provider store={store}>
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={createMuiTheme(lightTheme)}>
        <CssBaseline />
        <SnackbarProvider>
          <BrowserRouter>
            <Plugins />
            <Container maxWidth="lg" component="main">
              <Routes />
            </Container>
          </BrowserRouter>
        </SnackbarProvider>
      </ThemeProvider>
    </QueryClientProvider>
  </Provider>,
);
