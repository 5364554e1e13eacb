import { Entity } from '@backstage/catalog-model';
import {
  InfoCard,
  Progress,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  CATALOG_FILTER_EXISTS,
  EntityRefLink,
  catalogApiRef,
} from '@backstage/plugin-catalog-react';
import {
  ConsumersResult,
  RestartResult,
  SecretSummary,
  tryNormalizeEntityRef,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useId, useMemo, useRef, useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { KryptonT, useKryptonT } from '../../translation';
import { ActionDecisions } from '../access/decide';
import { RelativeTime } from '../time/RelativeTime';
import { ConsumerTable, DiscoveryFailureTable } from './ConsumerTable';
import { EntityGroups } from './EntityGroups';
import {
  KUBERNETES_ID_ANNOTATION,
  KUBERNETES_LABEL_SELECTOR_ANNOTATION,
  labelsFromConsumers,
} from './groupByEntity';
import { WorkloadVersions } from './PodVersions';
import { RestartDialog } from './RestartDialog';
import { RestartResultView } from './RestartResultView';
import {
  ConsumerVersionsState,
  useConsumerVersions,
} from './useConsumerVersions';
import { FollowStatus, VersionsSummary } from './VersionsSummary';

export interface ConsumersTabProps {
  location: SecretLocation;
  /** The live Secret; undefined when it could not be read. */
  summary?: SecretSummary;
  decisions?: ActionDecisions;
  /** The entity page's entity, whose workloads are shown first; undefined on the platform page. */
  entityRef?: string;
}

/**
 * Who requested a restart: a link to their catalog entity. The record lives in the Secret's
 * annotations, which anyone who may edit the Secret's metadata could have changed, so only a
 * well-formed user or group ref becomes a link; anything else is shown as written.
 */
function Requester({ actor }: { actor: string }) {
  const ref = tryNormalizeEntityRef(actor);
  return ref ? <EntityRefLink entityRef={ref} /> : <>{actor}</>;
}

/** Only what grouping reads, so a large catalog answers with small entities. */
const ENTITY_FIELDS = [
  'kind',
  'metadata.namespace',
  'metadata.name',
  'metadata.title',
  'metadata.annotations',
];

/** The entities that may own cluster objects in the Kubernetes plugin's sense. */
function useKubernetesEntities() {
  const catalogApi = useApi(catalogApiRef);
  return useAsyncRetry(async (): Promise<Entity[]> => {
    const { items } = await catalogApi.getEntities({
      // An array of filters is an OR: either annotation ties an entity to workloads.
      filter: [
        {
          [`metadata.annotations.${KUBERNETES_ID_ANNOTATION}`]:
            CATALOG_FILTER_EXISTS,
        },
        {
          [`metadata.annotations.${KUBERNETES_LABEL_SELECTOR_ANNOTATION}`]:
            CATALOG_FILTER_EXISTS,
        },
      ],
      fields: ENTITY_FIELDS,
    });
    return items;
  }, [catalogApi]);
}

/** Why Restart is not offered right now, or undefined when it is. */
function restartBlocker(
  props: ConsumersTabProps,
  consumers: { loading: boolean; error?: Error; value?: ConsumersResult },
  t: KryptonT,
): string | undefined {
  const { decisions, summary } = props;
  // Without the live Secret the decisions never arrive, so this reason comes first.
  if (!summary) return t('consumers.blockers.unreadable');
  if (!decisions) return t('consumers.blockers.checking');
  if (!decisions.restart.allowed) {
    return decisions.restart.reason ?? t('consumers.blockers.denied');
  }
  if (consumers.loading) return t('consumers.blockers.loading');
  if (consumers.error || !consumers.value) {
    return t('consumers.blockers.listFailed');
  }
  if (consumers.value.workloads.length === 0) {
    return t('consumers.blockers.noWorkloads');
  }
  return undefined;
}

/**
 * Which version the pods hold, in one line with its notes; the failure to read them, with a way
 * to retry, takes its place. The list of consumers and the restart do not depend on it.
 */
function VersionsHeadline({ versions }: { versions: ConsumerVersionsState }) {
  const t = useKryptonT();
  if (versions.value) {
    return (
      <VersionsSummary result={versions.value} rereadError={versions.failure} />
    );
  }
  if (!versions.failure) return null;
  return (
    <Box>
      <ResponseErrorPanel
        error={versions.failure}
        title={t('consumers.pods.loadFailed', {
          message: versions.failure.message,
        })}
      />
      <Box mt={1}>
        <Button
          variant="outlined"
          onClick={versions.retry}
          aria-label={t('consumers.pods.retry')}
          disabled={versions.loading}
        >
          {t('consumers.tab.retry')}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The workloads that consume a Secret, from the server's dry run, grouped by the catalog entities
 * that own them; which version of the Secret their pods hold; and the restart of those workloads
 * with its result, whose rollout the tab then follows until every pod holds the live version. A
 * restart answer of any status (requested, no_targets, partial, failed) is a result to show; only
 * refusals before any work (403, 404, 409 and the like) are errors.
 */
export const ConsumersTab = (props: ConsumersTabProps) => {
  const { location, entityRef } = props;
  const { cluster, namespace, name } = location;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const reasonId = useId();

  const consumers = useAsyncRetry(
    () => api.listConsumers({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  const catalog = useKubernetesEntities();
  const last = useAsyncRetry(
    () => api.getLastRestart({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  const versions = useConsumerVersions({ cluster, namespace, name });
  const versionsValue = versions.value;

  const [confirming, setConfirming] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const [attempt, setAttempt] = useState<RestartResult>();
  const [restartError, setRestartError] = useState<Error>();

  const workloads = useMemo(
    () => consumers.value?.workloads ?? [],
    [consumers.value],
  );
  const labelsOf = useMemo(() => labelsFromConsumers(workloads), [workloads]);
  // While the catalog loads, the lists wait for it rather than jump from ungrouped to grouped.
  const entities = catalog.error ? undefined : catalog.value;
  const groupingReady = !catalog.loading;

  const blocker = restartBlocker(props, consumers, t);

  // One confirmation sends one restart: a second click on it (it stays clickable while it
  // closes) is ignored until the user opens the confirmation again.
  const confirmed = useRef(false);
  const openConfirmation = () => {
    confirmed.current = false;
    setConfirming(true);
  };
  const confirm = async () => {
    if (confirmed.current) return;
    confirmed.current = true;
    setConfirming(false);
    setRestarting(true);
    setAttempt(undefined);
    setRestartError(undefined);
    try {
      const result = await api.restartConsumers({ cluster, namespace, name });
      setAttempt(result);
      // Kubernetes acknowledged some patches: watch the pods take the live version.
      if (result.status === 'requested' || result.status === 'partial') {
        versions.startFollowing();
      }
    } catch (e) {
      setRestartError(e as Error);
    } finally {
      setRestarting(false);
      // Even a refused or broken request may have been recorded; the server's record decides.
      last.retry();
    }
  };

  const resultProps = {
    entities,
    namespace,
    currentEntityRef: entityRef,
    labelsOf,
  };

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <InfoCard
        title={t('consumers.tab.title')}
        subheader={t('consumers.tab.subheader', { namespace })}
      >
        <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
          <Box
            display="flex"
            alignItems="center"
            flexWrap="wrap"
            style={{ gap: 16 }}
          >
            <Button
              variant="contained"
              color="primary"
              disabled={blocker !== undefined || restarting}
              aria-describedby={blocker ? reasonId : undefined}
              onClick={openConfirmation}
            >
              {restarting
                ? t('consumers.tab.restarting')
                : t('consumers.tab.restart')}
            </Button>
            <Button
              variant="outlined"
              onClick={() => {
                consumers.retry();
                versions.retry();
              }}
              disabled={consumers.loading}
            >
              {t('consumers.tab.reload')}
            </Button>
            {blocker && (
              <Typography id={reasonId} variant="body2" color="textSecondary">
                {t('consumers.tab.cannotRestart', { reason: blocker })}
              </Typography>
            )}
          </Box>
          <VersionsHeadline versions={versions} />
          <FollowStatus
            follow={versions.follow}
            result={versions.value}
            onStop={versions.stopFollowing}
          />
          {catalog.error && (
            <WarningPanel
              title={t('consumers.tab.catalogFailed')}
              message={catalog.error.message}
              defaultExpanded
            >
              <Button variant="outlined" onClick={catalog.retry}>
                {t('consumers.tab.retryCatalog')}
              </Button>
            </WarningPanel>
          )}
          {consumers.error && (
            <Box>
              <ResponseErrorPanel
                error={consumers.error}
                // The panel's details start collapsed, so the server's message goes into the title.
                title={t('consumers.tab.listFailed', {
                  message: consumers.error.message,
                })}
              />
              <Box mt={1}>
                <Button
                  variant="outlined"
                  onClick={consumers.retry}
                  aria-label={t('consumers.tab.retryList')}
                >
                  {t('consumers.tab.retry')}
                </Button>
              </Box>
            </Box>
          )}
          {(consumers.loading || !groupingReady) && <Progress />}
          {consumers.value &&
            consumers.value.discoveryFailures.length > 0 &&
            groupingReady && (
              <Box>
                <Alert severity="warning">
                  {t('consumers.tab.partialDiscovery')}
                </Alert>
                <DiscoveryFailureTable
                  failures={consumers.value.discoveryFailures}
                  label={t('consumers.tab.failedKinds')}
                />
              </Box>
            )}
          {consumers.value && groupingReady && workloads.length === 0 && (
            <Typography variant="body2">
              {consumers.value.discoveryFailures.length > 0
                ? t('consumers.tab.noneOfListedKinds')
                : t('consumers.tab.none', { namespace })}
            </Typography>
          )}
          {consumers.value && groupingReady && workloads.length > 0 && (
            <EntityGroups
              items={workloads}
              entities={entities}
              namespace={namespace}
              currentEntityRef={entityRef}
              render={(items, title) => (
                <ConsumerTable workloads={items} title={title} />
              )}
            />
          )}
        </Box>
      </InfoCard>

      {versionsValue && versionsValue.workloads.length > 0 && (
        <Box component="section" aria-label={t('consumers.pods.title')}>
          <InfoCard
            title={t('consumers.pods.title')}
            subheader={t('consumers.pods.subheader')}
          >
            <Box display="flex" flexDirection="column" style={{ gap: 24 }}>
              {versionsValue.workloads.map(w => (
                <WorkloadVersions
                  key={`${w.kind}/${w.name}`}
                  workload={w}
                  checkedAt={versionsValue.checkedAt}
                />
              ))}
            </Box>
          </InfoCard>
        </Box>
      )}

      {restartError && (
        <ResponseErrorPanel
          error={restartError}
          title={t('consumers.tab.refused', {
            message: restartError.message,
          })}
        />
      )}
      {attempt && (
        <Box component="section" aria-label={t('consumers.tab.thisRestart')}>
          <InfoCard title={t('consumers.tab.thisRestart')}>
            <RestartResultView
              result={attempt}
              label={t('consumers.tab.thisRestart')}
              {...resultProps}
            />
          </InfoCard>
        </Box>
      )}

      <Box component="section" aria-label={t('consumers.tab.lastTitle')}>
        <InfoCard title={t('consumers.tab.lastTitle')}>
          {(last.loading || (last.value && !groupingReady)) && <Progress />}
          {last.error && (
            <Box>
              <ResponseErrorPanel
                error={last.error}
                title={t('consumers.tab.lastFailed', {
                  message: last.error.message,
                })}
              />
              <Box mt={1}>
                <Button
                  variant="outlined"
                  onClick={last.retry}
                  aria-label={t('consumers.tab.retryLast')}
                >
                  {t('consumers.tab.retry')}
                </Button>
              </Box>
            </Box>
          )}
          {!last.loading && !last.error && last.value === null && (
            <Typography variant="body2">{t('consumers.tab.noLast')}</Typography>
          )}
          {!last.loading && !last.error && last.value && groupingReady && (
            <Box display="flex" flexDirection="column" style={{ gap: 8 }}>
              <Typography variant="body2">
                {t('consumers.tab.requestedBy', {
                  actor: <Requester actor={last.value.requestedBy} />,
                  time: <RelativeTime value={last.value.requestedAt} />,
                })}
              </Typography>
              <RestartResultView
                result={last.value.result}
                label={t('consumers.tab.lastRestart')}
                {...resultProps}
              />
            </Box>
          )}
        </InfoCard>
      </Box>

      <RestartDialog
        open={confirming}
        secretName={name}
        namespace={namespace}
        workloads={workloads}
        discoveryFailures={consumers.value?.discoveryFailures ?? []}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      />
    </Box>
  );
};
