import {
  Progress,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import {
  ChangeRequest,
  DeleteResult,
  SecretSummary,
  SecretWriteAnswer,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Tab from '@material-ui/core/Tab';
import Tabs from '@material-ui/core/Tabs';
import { makeStyles } from '@material-ui/core/styles';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import {
  ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import {
  AccessInputs,
  decideActions,
  limitByOwner,
  limitByType,
  secretRole,
} from '../access/decide';
import { useKryptonConfig } from '../access/useKryptonConfig';
import { usePrincipal } from '../access/usePrincipal';
import { useSecretPermissions } from '../access/useSecretPermissions';
import { DEFAULT_SECRET_TAB, SECRET_TABS, SecretTabId } from '../secretLink';
import {
  ApprovalNotice,
  ChangeRequestedProvider,
  ChangesTab,
} from '../changes';
import { ConsumersTab } from '../consumers';
import {
  DeleteSecretButton,
  DeletedNotice,
  PendingDeletionNotice,
} from '../delete';
import { DiscardDraftDialog, useBeforeUnload } from '../edit';
import { HistoryTab } from '../history';
import { carriesValues, keptAnswer, summaryOf } from '../writeAnswer';
import { AccessTab } from './AccessTab';
import { ChangeElsewhere, ChangesElsewhere } from './ChangesElsewhere';
import { SecretFacts } from './SecretFacts';
import { useSecretSummary } from './useSecretSummary';
import { useSecretValues } from './useSecretValues';
import { ValuesTab } from './ValuesTab';

/** A restored Secret whose version counter is unreadable: a symbol, not a word. */
const NO_VERSION = '—';

function TabPanel(props: {
  baseId: string;
  tab: SecretTabId;
  current: SecretTabId;
  /** Stays mounted while hidden: the tab holds an open edit form, whose draft must survive. */
  keepMounted?: boolean;
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
      {(selected || props.keepMounted) && <Box pt={2}>{props.children}</Box>}
    </div>
  );
}

/**
 * Tabs that live in the address: each tab is a link, so it can be shared and the browser's back
 * button returns to the previous tab. The view stays mounted across these links, which keeps an
 * open form's draft.
 */
export interface RoutedSecretTabs {
  current: SecretTabId;
  href: (tab: SecretTabId) => string;
}

export interface SecretDetailProps {
  location: SecretLocation;
  /** Routed tabs; without them the view keeps its tab in its own state, starting at Values. */
  tabs?: RoutedSecretTabs;
  /** Opens the restore flow of the newest restorable version right away ("Roll back…"). */
  startRestore?: boolean;
  /** Told once startRestore has been acted on (the page drops ?rollback=1 from its address). */
  onStartRestoreUsed?: () => void;
  /** The catalog entity the user came from: its workloads come first on the Consumers tab. */
  entityRef?: string;
  /** The change request that the Changes tab opens for review (a notification's link). */
  openRequest?: string;
  /**
   * Whether the page around the view names the Secret already (as the Krypton page's header
   * does), so that the facts card does not repeat the name as its title. A host that lists
   * several Secrets, or whose title is something else, leaves it off: the card then names it.
   */
  namedByPage?: boolean;
  /**
   * After a confirmed delete (200): the caller leaves the detail view and tells what became of
   * the history. Without it, the notice replaces the detail view in place.
   */
  onDeleted?: (secret: SecretSummary, result: DeleteResult) => void;
}

/**
 * MUI gives a tab 160 px from a 600 px window on (Backstage 120 px from 960 px on): at an 800 px
 * window the four tabs took 640 px of 528. A tab is as wide as its word, and no narrower than
 * 96 px; a window too narrow for them all scrolls the tabs.
 */
const useStyles = makeStyles(theme => ({
  tab: {
    [theme.breakpoints.up('sm')]: { minWidth: 96 },
    [theme.breakpoints.up('md')]: { minWidth: 120 },
  },
}));

/**
 * One Secret: its metadata for every reader (the summary route), its values for those who may
 * reveal them, who may do what, its history, and the workloads that consume it. The location's
 * cluster is the one the link named; without one the backend's default cluster answers, and the
 * summary names it.
 */
export const SecretDetail = (props: SecretDetailProps) => {
  const { location } = props;
  const t = useKryptonT();
  const classes = useStyles();
  const baseId = useId();
  const live = useSecretSummary(location);
  const config = useKryptonConfig();
  const identity = usePrincipal();
  const metadata = live.summary;
  const permissions = useSecretPermissions(metadata?.policy, !metadata);
  const [ownTab, setOwnTab] = useState<SecretTabId>(DEFAULT_SECRET_TAB);
  const routed = props.tabs;
  const tab = routed?.current ?? ownTab;
  const [editing, setEditing] = useState<SecretTabId>();
  const [restored, setRestored] = useState<SecretSummary>();
  const [deleted, setDeleted] = useState<{
    secret: SecretSummary;
    result: DeleteResult;
  }>();
  const [pending, setPending] = useState<DeleteResult>();
  /** Whether the open edit form holds changes that leaving it would lose. */
  const [dirty, setDirty] = useState(false);
  /** A step that would throw such a draft away, waiting for the user's answer. */
  const [discarding, setDiscarding] = useState<{ go: () => void }>();
  useBeforeUnload(editing !== undefined && dirty);
  const [elsewhere, setElsewhere] = useState<ChangeElsewhere>();
  /** Counts the history reloads the page asked for (a change made elsewhere, a delete's outcome). */
  const [historyReloads, setHistoryReloads] = useState(0);
  /** The change request that a write of this page became, and how many it made. */
  const [requested, setRequested] = useState<ChangeRequest>();
  const [requests, setRequests] = useState(0);

  const access = useMemo(() => {
    if (!metadata || !identity.principal) return undefined;
    const inputs: AccessInputs = {
      rules: metadata.access,
      principal: identity.principal,
      identityMode: config.config?.identityMode,
      restartEnabled: config.config?.restartEnabled,
      // The summary route serves a Secret only after its read rules passed on the server.
      served: true,
      permitted: permissions.permitted,
    };
    return {
      decisions: limitByOwner(
        limitByType(decideActions(inputs, t), metadata.type),
        metadata.owner,
        t,
      ),
      role: secretRole(inputs),
      inputs,
    };
  }, [metadata, identity.principal, config.config, permissions.permitted, t]);
  const decisions = access?.decisions;
  const values = useSecretValues(location, decisions?.reveal.allowed ?? false);
  const mayReveal = decisions?.reveal.allowed ?? false;
  const { refresh: refreshSummary, replace: replaceSummary } = live;
  const { refresh: refreshValues, drop: dropValues } = values;
  // Values carry the metadata too: whichever of the two routes answered last is the live state.
  // Only the metadata is taken, so the summary (handed to every tab) never holds values.
  useEffect(() => {
    if (values.secret) replaceSummary(summaryOf(values.secret));
  }, [values.secret, replaceSummary]);
  // A value revealed from a newer revision than the page shows: the page catches up with it (once
  // per revision, so a summary that stays older cannot start a loop).
  const caughtUp = useRef<string>();
  useEffect(() => {
    const fetched = values.fetched;
    if (!fetched || !metadata) return;
    const at = `${fetched.uid}/${fetched.resourceVersion}`;
    if (
      at === `${metadata.uid}/${metadata.resourceVersion}` ||
      caughtUp.current === at
    )
      return;
    caughtUp.current = at;
    refreshSummary().catch(() => undefined);
  }, [values.fetched, metadata, refreshSummary]);

  // Reload latest of the restore and delete confirmations: the live Secret anew, or an error. The
  // values are read again only where they had been asked for (a comparison, a confirmation).
  const hadValues = values.secret !== undefined;
  const reloadLive = useCallback(async () => {
    if (!hadValues) dropValues();
    await Promise.all([
      refreshSummary(),
      mayReveal && hadValues ? refreshValues() : Promise.resolve(),
    ]);
  }, [refreshSummary, refreshValues, dropValues, mayReveal, hadValues]);

  // Delete's Reload latest, and its 202: a partial cleanup may have removed restore choices.
  const reloadAfterDelete = useCallback(async () => {
    setHistoryReloads(n => n + 1);
    await reloadLive();
  }, [reloadLive]);

  const onChangedElsewhere = useCallback(
    (change: ChangeElsewhere) => {
      setElsewhere(change);
      setHistoryReloads(n => n + 1);
      // As Reload latest does; a Secret deleted elsewhere fails to reload, and the notice says why.
      reloadLive().catch(() => undefined);
    },
    [reloadLive],
  );

  // A write that became a change request ends its form or dialog like a save (nothing was
  // written, and the draft's change waits in the request) and points at the Changes tab.
  const onRequested = useCallback((request: ChangeRequest) => {
    setDirty(false);
    setEditing(undefined);
    setRequested(request);
    setRequests(n => n + 1);
  }, []);

  // An approval on this page that applied the change: the page moves to the Secret it wrote.
  const onApplied = () => {
    setHistoryReloads(n => n + 1);
    reloadLive().catch(() => undefined);
  };

  if (deleted) {
    return <DeletedNotice secret={deleted.secret} result={deleted.result} />;
  }
  if (live.error) {
    const denied = failureOf(live.error).kind === 'forbidden';
    return (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <ResponseErrorPanel error={live.error} title={t('detail.loadFailed')} />
        {denied && (
          // The history route answers for itself, so a refused reader sees that the history is
          // denied too, never an empty history. HistoryTab draws its own History card.
          <HistoryTab
            location={location}
            reloadLive={reloadLive}
            onRestored={answer => live.replace(summaryOf(answer))}
          />
        )}
      </Box>
    );
  }
  if (identity.error) {
    return (
      <ResponseErrorPanel
        error={identity.error}
        title={t('detail.identityFailed')}
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
  /**
   * Whether values that a write answered may be kept: the user's decisions now, and under the
   * rules the answer reports (a save may have changed them). Admin standing is configuration,
   * not rules, so only a user already inferred admin keeps it under the new rules.
   */
  const mayKeepValues = (answer: SecretWriteAnswer) =>
    mayReveal &&
    decideActions(
      {
        ...access.inputs,
        rules: answer.access,
        served: access.role === 'admin',
      },
      t,
    ).reveal.allowed;
  const onSaved = (answer: SecretWriteAnswer) => {
    const kept = keptAnswer(answer, mayKeepValues(answer));
    // An answer without (kept) values still moves the metadata (revision, version, keys, rules)
    // forward; the values tab then says why no values are shown instead of showing stale ones.
    replaceSummary(summaryOf(kept));
    values.replace(kept);
    setEditing(undefined);
  };
  // The form's own Reload latest: the facts, Delete's expected revision and the other tabs follow
  // the revision the draft now starts from (the form has pinned it, so it is no news to the form).
  const onFormReloaded = (answer: SecretWriteAnswer) => {
    replaceSummary(summaryOf(answer));
    if (carriesValues(answer)) values.replace(answer);
  };
  const onRestored = (answer: SecretWriteAnswer) => {
    onSaved(answer);
    setRestored(summaryOf(answer));
  };
  const onDeleted = (result: DeleteResult) => {
    if (props.onDeleted) props.onDeleted(metadata, result);
    else setDeleted({ secret: metadata, result });
  };
  const onPending = (result: DeleteResult) => {
    setPending(result);
    reloadAfterDelete().catch(() => undefined);
  };
  // Cancel, and opening the other tab's form, end the open form: a draft with changes asks first.
  const onEdit = (which: SecretTabId) => (on: boolean) => {
    const next = on ? which : undefined;
    if (next === editing) return;
    const go = () => {
      setDirty(false);
      setEditing(next);
    };
    if (editing !== undefined && dirty) setDiscarding({ go });
    else go();
  };

  // Opens another tab: through its address when the tabs are routed.
  const tabButton = (to: SecretTabId, label: string) =>
    routed ? (
      <Button color="inherit" component={RouterLink} to={routed.href(to)}>
        {label}
      </Button>
    ) : (
      <Button color="inherit" onClick={() => setOwnTab(to)}>
        {label}
      </Button>
    );
  const restartAction = tabButton('consumers', t('detail.restartConsumers'));

  return (
    <ChangeRequestedProvider value={onRequested}>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        {config.error && (
          <WarningPanel
            title={t('detail.settingsFailed')}
            message={config.error.message}
          />
        )}
        <DiscardDraftDialog
          open={discarding !== undefined}
          onKeep={() => setDiscarding(undefined)}
          onDiscard={() => {
            discarding?.go();
            setDiscarding(undefined);
          }}
        />
        <ChangesElsewhere
          location={location}
          summary={metadata}
          change={elsewhere}
          editing={editing !== undefined}
          onChange={onChangedElsewhere}
          onDismiss={() => setElsewhere(undefined)}
        />
        {pending && (
          <PendingDeletionNotice
            secret={metadata}
            result={pending}
            onDismiss={() => setPending(undefined)}
          />
        )}
        {restored && (
          <Alert
            severity="success"
            onClose={() => setRestored(undefined)}
            action={
              decisions.restart.allowed && tab !== 'consumers'
                ? restartAction
                : undefined
            }
          >
            {t('detail.restored', {
              version: String(restored.version ?? NO_VERSION),
            })}
          </Alert>
        )}
        {requested && (
          <Alert
            severity="info"
            onClose={() => setRequested(undefined)}
            action={
              tab !== 'changes'
                ? tabButton('changes', t('changes.requested.open'))
                : undefined
            }
          >
            <AlertTitle>{t('changes.requested.title')}</AlertTitle>
            {t('changes.requested.body', {
              id: requested.id,
              count: requested.policy.requiredApprovals,
            })}
          </Alert>
        )}
        {metadata.approval && tab !== 'changes' && (
          <ApprovalNotice approval={metadata.approval} />
        )}
        <SecretFacts
          secret={metadata}
          location={location}
          namedByPage={props.namedByPage}
        />
        <Box display="flex" justifyContent="flex-end">
          <DeleteSecretButton
            location={location}
            summary={metadata}
            decisions={decisions}
            reloadLive={reloadAfterDelete}
            onDeleted={onDeleted}
            onPending={onPending}
            // A delete that failed may still have removed snapshots before it stopped.
            onFailed={() => setHistoryReloads(n => n + 1)}
          />
        </Box>
        <Box>
          <Tabs
            value={tab}
            // Routed tabs change through their links (and the address), not here.
            onChange={(_e, next: SecretTabId) => {
              if (!routed) setOwnTab(next);
            }}
            aria-label={t('detail.tabs.label')}
            indicatorColor="primary"
            textColor="primary"
            variant="scrollable"
            scrollButtons="auto"
          >
            {SECRET_TABS.map(({ id }) =>
              routed ? (
                <Tab
                  key={id}
                  value={id}
                  label={t(`detail.tabs.${id}`)}
                  classes={{ root: classes.tab }}
                  id={`${baseId}-tab-${id}`}
                  aria-controls={`${baseId}-panel-${id}`}
                  component={RouterLink}
                  to={routed.href(id)}
                />
              ) : (
                <Tab
                  key={id}
                  value={id}
                  label={t(`detail.tabs.${id}`)}
                  classes={{ root: classes.tab }}
                  id={`${baseId}-tab-${id}`}
                  aria-controls={`${baseId}-panel-${id}`}
                />
              ),
            )}
          </Tabs>
          <TabPanel
            baseId={baseId}
            tab="values"
            current={tab}
            keepMounted={editing === 'values'}
          >
            <ValuesTab
              location={location}
              summary={metadata}
              values={values}
              decisions={decisions}
              editing={editing === 'values'}
              onEdit={onEdit('values')}
              onDirtyChange={setDirty}
              onReloaded={onFormReloaded}
              onSaved={onSaved}
            />
          </TabPanel>
          <TabPanel
            baseId={baseId}
            tab="access"
            current={tab}
            keepMounted={editing === 'access'}
          >
            <AccessTab
              location={location}
              secret={metadata}
              decisions={decisions}
              role={access.role}
              editing={editing === 'access'}
              onEdit={onEdit('access')}
              onDirtyChange={setDirty}
              onReloaded={onFormReloaded}
              onSaved={onSaved}
            />
          </TabPanel>
          <TabPanel baseId={baseId} tab="history" current={tab}>
            <HistoryTab
              location={location}
              summary={metadata}
              // Values that a failed refresh left behind are not the live ones.
              live={values.error ? undefined : values.secret}
              liveLoading={values.loading}
              loadLive={mayReveal ? values.load : undefined}
              decisions={decisions}
              reloadLive={reloadLive}
              onRestored={onRestored}
              startRestore={props.startRestore}
              onStartRestoreUsed={props.onStartRestoreUsed}
              reloads={historyReloads}
            />
          </TabPanel>
          <TabPanel baseId={baseId} tab="consumers" current={tab}>
            <ConsumersTab
              location={location}
              summary={metadata}
              decisions={decisions}
              entityRef={props.entityRef}
            />
          </TabPanel>
          <TabPanel baseId={baseId} tab="changes" current={tab}>
            <ChangesTab
              location={location}
              summary={metadata}
              principal={access.inputs.principal}
              reloads={requests}
              open={props.openRequest}
              onApplied={onApplied}
            />
          </TabPanel>
        </Box>
      </Box>
    </ChangeRequestedProvider>
  );
};
