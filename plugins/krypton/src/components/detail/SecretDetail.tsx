import {
  Progress,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { SecretDto } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Tab from '@material-ui/core/Tab';
import Tabs from '@material-ui/core/Tabs';
import { ReactNode, useId, useMemo, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { decideActions, secretRole } from '../access/decide';
import { useKryptonConfig } from '../access/useKryptonConfig';
import { usePrincipal } from '../access/usePrincipal';
import {
  secretResourceRef,
  useSecretPermissions,
} from '../access/useSecretPermissions';
import { AccessTab } from './AccessTab';
import { SecretFacts } from './SecretFacts';
import { useSecretValues } from './useSecretValues';
import { ValuesTab } from './ValuesTab';

/** The tabs of the detail view; history and consumers join this list later. */
const TABS = [
  { id: 'values', label: 'Values' },
  { id: 'access', label: 'Access' },
] as const;
type TabId = (typeof TABS)[number]['id'];

function TabPanel(props: {
  baseId: string;
  tab: TabId;
  current: TabId;
  children: ReactNode;
}) {
  const selected = props.tab === props.current;
  return (
    <div
      role="tabpanel"
      id={`${props.baseId}-panel-${props.tab}`}
      aria-labelledby={`${props.baseId}-tab-${props.tab}`}
      hidden={!selected}
    >
      {selected && <Box pt={2}>{props.children}</Box>}
    </div>
  );
}

/**
 * One Secret: its metadata for every reader (the summary route), its values for those who may
 * reveal them, and who may do what. The location's cluster is the one the link named; without
 * one the backend's default cluster answers, and the summary names it.
 */
export const SecretDetail = ({ location }: { location: SecretLocation }) => {
  const api = useApi(kryptonApiRef);
  const baseId = useId();
  const { cluster, namespace, name } = location;
  const summary = useAsync(
    () => api.getSecretSummary({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  const config = useKryptonConfig();
  const identity = usePrincipal();
  const loadedSummary = summary.value;
  const permissions = useSecretPermissions(
    loadedSummary
      ? secretResourceRef(loadedSummary.cluster, namespace, name)
      : undefined,
  );
  const [tab, setTab] = useState<TabId>('values');
  const [editing, setEditing] = useState<TabId>();
  const [saved, setSaved] = useState<SecretDto>();

  // The freshest metadata: a saved Secret, else the summary.
  const metadata = saved ?? loadedSummary;
  const access = useMemo(() => {
    if (!metadata || !identity.principal) return undefined;
    const inputs = {
      rules: metadata.access,
      principal: identity.principal,
      identityMode: config.config?.identityMode,
      restartEnabled: config.config?.restartEnabled,
      // The summary route serves a Secret only after its read rules passed on the server.
      served: true,
      permitted: permissions.permitted,
    };
    return { decisions: decideActions(inputs), role: secretRole(inputs) };
  }, [metadata, identity.principal, config.config, permissions.permitted]);
  const decisions = access?.decisions;
  const values = useSecretValues(location, decisions?.reveal.allowed ?? false);

  if (summary.error) {
    return (
      <ResponseErrorPanel
        error={summary.error}
        title="Could not load the Secret"
      />
    );
  }
  if (identity.error) {
    return (
      <ResponseErrorPanel
        error={identity.error}
        title="Could not read your identity"
      />
    );
  }
  if (
    !metadata ||
    !access ||
    !decisions ||
    config.loading ||
    permissions.loading
  ) {
    return <Progress />;
  }
  const current = values.secret ?? metadata;

  const onSaved = (secret: SecretDto) => {
    setSaved(secret);
    values.replace(secret);
    setEditing(undefined);
  };
  const onEdit = (which: TabId) => (on: boolean) =>
    setEditing(on ? which : undefined);

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      {config.error && (
        <WarningPanel
          title="Krypton's settings could not be read"
          message={config.error.message}
        />
      )}
      <SecretFacts secret={current} />
      <Box>
        <Tabs
          value={tab}
          onChange={(_e, next: TabId) => setTab(next)}
          aria-label="Secret sections"
          indicatorColor="primary"
          textColor="primary"
        >
          {TABS.map(t => (
            <Tab
              key={t.id}
              value={t.id}
              label={t.label}
              id={`${baseId}-tab-${t.id}`}
              aria-controls={`${baseId}-panel-${t.id}`}
            />
          ))}
        </Tabs>
        <TabPanel baseId={baseId} tab="values" current={tab}>
          <ValuesTab
            location={location}
            summary={current}
            values={values}
            decisions={decisions}
            editing={editing === 'values'}
            onEdit={onEdit('values')}
            onSaved={onSaved}
          />
        </TabPanel>
        <TabPanel baseId={baseId} tab="access" current={tab}>
          <AccessTab
            location={location}
            secret={current}
            loaded={values.secret}
            decisions={decisions}
            role={access.role}
            editing={editing === 'access'}
            onEdit={onEdit('access')}
            onSaved={onSaved}
          />
        </TabPanel>
      </Box>
    </Box>
  );
};
