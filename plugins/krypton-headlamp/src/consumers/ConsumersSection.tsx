import {
  ConsumerVersionsResult,
  ConsumersResult,
  RestartResult,
} from '@krypton/core';
import { Loader } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { HeadlampKrypton } from '../engines';
import { Failure, failureOf } from '../history/failure';
import { text } from '../messages';
import { ShownSecret } from '../shownSecret';
import { ConsumerTable, DiscoveryFailureTable } from './ConsumerTables';
import { RestartConsumersDialog } from './RestartConsumersDialog';
import { RestartResultView } from './RestartResultView';
import { ConsumersState, useConsumers } from './useConsumers';
import {
  FollowStatus,
  VersionsFailure,
  VersionsSummary,
  WorkloadVersions,
} from './PodVersions';
import {
  ConsumerVersionsState,
  useConsumerVersions,
} from './useConsumerVersions';

/** The kinds the engine lists: Deployment, StatefulSet and DaemonSet. */
const WORKLOAD_KINDS = 3;

type Restart =
  | { status: 'idle' }
  | { status: 'confirm' }
  | { status: 'running' }
  | { status: 'done'; result: RestartResult }
  | { status: 'failed'; failure: Failure };

function Failed(props: {
  title: string;
  body: string;
  severity: 'warning' | 'error';
  onRetry: () => void;
}) {
  return (
    <Alert
      severity={props.severity}
      action={
        <Button color="inherit" onClick={props.onRetry}>
          {text.consumers.retry}
        </Button>
      }
    >
      <AlertTitle>{props.title}</AlertTitle>
      {props.body}
    </Alert>
  );
}

/**
 * A dry run whose every failed kind was refused by RBAC and that found nothing is a denial; one
 * that found nothing because kinds failed otherwise is unavailable. Neither is an empty list:
 * whether the unlisted kinds use the Secret is not known.
 */
function Listed(props: {
  result: ConsumersResult;
  namespace: string;
  onRetry: () => void;
}) {
  const { workloads, discoveryFailures } = props.result;
  const kinds = discoveryFailures.map(f => f.kind).join(', ');
  const failedKinds = discoveryFailures.length > 0 && (
    <DiscoveryFailureTable
      failures={discoveryFailures}
      label={text.consumers.failedKinds}
    />
  );
  if (workloads.length === 0 && discoveryFailures.length > 0) {
    const denied = discoveryFailures.every(f => f.code === 'forbidden');
    return (
      <Box display="flex" flexDirection="column" gap={1}>
        <Failed
          severity={denied ? 'warning' : 'error'}
          title={
            denied
              ? text.consumers.deniedTitle
              : text.consumers.unavailableTitle
          }
          body={
            denied
              ? text.consumers.denied(kinds)
              : text.consumers.unavailable(discoveryFailures[0].message)
          }
          onRetry={props.onRetry}
        />
        {discoveryFailures.length < WORKLOAD_KINDS && (
          <Typography variant="body2">{text.consumers.noneOfListed}</Typography>
        )}
        {failedKinds}
      </Box>
    );
  }
  if (workloads.length === 0)
    return (
      <Typography variant="body2">
        {text.consumers.empty(props.namespace)}
      </Typography>
    );
  return (
    <Box display="flex" flexDirection="column" gap={1}>
      {discoveryFailures.length > 0 && (
        <Alert severity="warning">{text.consumers.partialDiscovery}</Alert>
      )}
      {failedKinds}
      <ConsumerTable workloads={workloads} />
    </Box>
  );
}

/**
 * Which version the pods hold, in one line with its notes; the failure to read them, with Retry,
 * takes its place. The list of consumers and the restart do not depend on it.
 */
function VersionsHeadline({ versions }: { versions: ConsumerVersionsState }) {
  if (versions.value)
    return (
      <VersionsSummary
        result={versions.value}
        rereadFailure={versions.failure}
        checking={versions.loading}
        onCheckAgain={versions.retry}
      />
    );
  if (versions.failure)
    return (
      <VersionsFailure
        failure={versions.failure}
        retrying={versions.loading}
        onRetry={versions.retry}
      />
    );
  return <Loader title={text.consumers.pods.loading} />;
}

/** Each consuming workload with its rollout and its pods grouped by the version they hold. */
function PodsPart({ result }: { result: ConsumerVersionsResult }) {
  const headingId = useId();
  if (result.workloads.length === 0) return null;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      display="flex"
      flexDirection="column"
      gap={2}
    >
      <Box>
        <Typography variant="subtitle1" component="h4" id={headingId}>
          {text.consumers.pods.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {text.consumers.pods.intro}
        </Typography>
      </Box>
      {result.workloads.map(w => (
        <WorkloadVersions
          key={`${w.kind}/${w.name}`}
          workload={w}
          checkedAt={result.checkedAt}
        />
      ))}
    </Box>
  );
}

function Consumers(props: {
  state: ConsumersState;
  namespace: string;
  reload: () => void;
}) {
  const { state } = props;
  if (state.status === 'loading')
    return <Loader title={text.consumers.loading} />;
  if (state.status === 'failed')
    return state.failure.kind === 'denied' ? (
      <Failed
        severity="warning"
        title={text.consumers.deniedTitle}
        body={text.consumers.deniedSecret}
        onRetry={props.reload}
      />
    ) : (
      <Failed
        severity="error"
        title={text.consumers.unavailableTitle}
        body={text.consumers.unavailable(state.failure.message)}
        onRetry={props.reload}
      />
    );
  return (
    <Listed
      result={state.value}
      namespace={props.namespace}
      onRetry={props.reload}
    />
  );
}

/**
 * The workloads that consume a Krypton-managed Secret, from the core's dry run, and restart
 * consumers with the result contract's outcome per workload. The user's RBAC is the only gate:
 * the engine gates the live Secret as the server does, and each list and patch is the user's own,
 * so RBAC that allows some kinds only gives a partial result.
 */
export function ConsumersSection(props: {
  krypton: HeadlampKrypton;
  secret: ShownSecret;
}) {
  const { krypton, secret } = props;
  const { namespace, name } = secret;
  const { state, reload } = useConsumers(krypton, secret);
  const versions = useConsumerVersions(krypton, secret);
  const [restart, setRestart] = useState<Restart>({ status: 'idle' });
  const reasonId = useId();
  // One confirmation sends one restart: a second click while the dialog closes is ignored.
  const confirmed = useRef(false);

  const listed = state.status === 'loaded' ? state.value : undefined;
  const workloads = listed?.workloads ?? [];
  const blocked = state.status === 'loaded' && workloads.length === 0;
  const running = restart.status === 'running';
  // The pods' versions are about the workloads listed: with none, the list says all there is.
  const showVersions = workloads.length > 0;

  const confirm = async () => {
    if (confirmed.current) return;
    confirmed.current = true;
    setRestart({ status: 'running' });
    try {
      // As the backend's restartService: the live Secret's restart gate, then the engine.
      await krypton.live.gateRestart(namespace, name, krypton.gate);
      const result = await krypton.restart.restart(namespace, name);
      setRestart({ status: 'done', result });
      // Kubernetes acknowledged some patches: watch the pods take the live version.
      if (result.status === 'requested' || result.status === 'partial')
        versions.startFollowing();
    } catch (error) {
      setRestart({ status: 'failed', failure: failureOf(error) });
    }
  };

  return (
    <Box display="flex" flexDirection="column" gap={2}>
      <Typography variant="body2">{text.consumers.intro(namespace)}</Typography>
      <Box display="flex" alignItems="center" flexWrap="wrap" gap={2}>
        <Button
          variant="contained"
          disabled={!listed || blocked || running}
          aria-describedby={blocked ? reasonId : undefined}
          onClick={() => {
            confirmed.current = false;
            setRestart({ status: 'confirm' });
          }}
        >
          {running ? text.consumers.restarting : text.consumers.restart}
        </Button>
        {blocked && (
          <Typography id={reasonId} variant="body2" color="text.secondary">
            {text.consumers.cannotRestart}
          </Typography>
        )}
      </Box>
      {restart.status === 'done' && (
        <RestartResultView result={restart.result} />
      )}
      {restart.status === 'failed' &&
        (restart.failure.kind === 'denied' ? (
          <Alert severity="error">
            <AlertTitle>{text.consumers.result.refusedTitle}</AlertTitle>
            {text.consumers.result.refused}
          </Alert>
        ) : (
          <Alert severity="error">
            <AlertTitle>{text.consumers.result.failedTitle}</AlertTitle>
            {text.consumers.result.failed(restart.failure.message)}
          </Alert>
        ))}
      {showVersions && <VersionsHeadline versions={versions} />}
      <FollowStatus
        follow={versions.follow}
        result={versions.value}
        onStop={versions.stopFollowing}
      />
      <Consumers
        state={state}
        namespace={namespace}
        reload={() => {
          reload();
          versions.retry();
        }}
      />
      {showVersions && versions.value && <PodsPart result={versions.value} />}
      {restart.status === 'confirm' && listed && (
        <RestartConsumersDialog
          secretName={name}
          workloads={listed.workloads}
          discoveryFailures={listed.discoveryFailures}
          onConfirm={confirm}
          onCancel={() => setRestart({ status: 'idle' })}
        />
      )}
    </Box>
  );
}
