import { useApi } from '@backstage/core-plugin-api';
import { ChangeRequest, Principal, SecretSummary } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { ReactNode, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { OwnershipBanner } from '../owner';
import { RelativeTime } from '../time/RelativeTime';
import { refsText } from './ApprovalNotice';
import { ChangeComparison } from './ChangeComparison';
import { DecideDialog, DecisionAction } from './DecideDialog';
import { changeTitle, changedFields, offeredDecisions } from './describeChange';
import { StateChip } from './StateChip';

function Fact(props: { label: string; children: ReactNode }) {
  return (
    <Box minWidth={160}>
      <Typography variant="overline" component="dt" color="textSecondary">
        {props.label}
      </Typography>
      <Typography
        variant="body1"
        component="dd"
        style={{ margin: 0, overflowWrap: 'anywhere' }}
      >
        {props.children}
      </Typography>
    </Box>
  );
}

/** How many workloads a restart would touch: the consumers dry run, which restarts nothing. */
function ConsumersLine(props: { location: SecretLocation }) {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { location } = props;
  const state = useAsync(
    () => api.listConsumers(location),
    [api, location.cluster, location.namespace, location.name],
  );
  // The Consumers tab says why, where the dry run is refused or fails.
  if (!state.value) return null;
  const count = state.value.workloads.length;
  return (
    <Typography variant="body2">
      {count === 0
        ? t('changes.review.consumersNone')
        : t('changes.review.consumers', { count })}
    </Typography>
  );
}

/**
 * One change request as its approvers review it: who asked, why and what; the policy it waits
 * under; the decisions so far; what the change does to the live Secret key by key, what it comes
 * to on an owned Secret and for the workloads that read it; and the decisions the user may make.
 */
export function ChangeRequestReview(props: {
  location: SecretLocation;
  request: ChangeRequest;
  /** The live Secret as the page shows it. */
  summary: SecretSummary;
  principal: Principal;
  onDecided: (after: ChangeRequest) => void;
}) {
  const { request, summary } = props;
  const t = useKryptonT();
  const [deciding, setDeciding] = useState<DecisionAction>();
  const offered = offeredDecisions(request, props.principal, new Date());
  const pending = request.state === 'pending';
  const movedOn =
    pending &&
    (summary.uid !== request.uid ||
      summary.resourceVersion !== request.baseRevision);
  const fields = changedFields(request.change, t);
  const approvals = request.decisions.filter(d => d.decision === 'approve');
  const rejections = request.decisions.filter(d => d.decision === 'reject');

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <Box
        display="flex"
        flexWrap="wrap"
        alignItems="center"
        style={{ gap: 8 }}
      >
        {/* The id stays whole, hyphens and all: in a narrow window it takes a line of its own. */}
        <Typography variant="h6" component="h3">
          {t('changes.review.title', {
            id: <span style={{ whiteSpace: 'nowrap' }}>{request.id}</span>,
          })}
        </Typography>
        <StateChip state={request.state} />
      </Box>
      <Box
        component="dl"
        display="flex"
        flexWrap="wrap"
        style={{ gap: 16, margin: 0 }}
        aria-label={t('changes.review.factsLabel')}
      >
        <Fact label={t('changes.review.change')}>
          {changeTitle(request.change, t)}
        </Fact>
        <Fact label={t('changes.review.requestedBy')}>
          {request.requestedBy}
        </Fact>
        <Fact label={t('changes.review.requested')}>
          <RelativeTime value={request.requestedAt} />
        </Fact>
        {pending && (
          <Fact label={t('changes.review.expires')}>
            <RelativeTime value={request.expiresAt} />
          </Fact>
        )}
        <Fact label={t('changes.review.policy')}>
          {t('changes.review.policyValue', {
            count: request.policy.requiredApprovals,
            approvers: refsText(request.policy.approvers),
          })}
        </Fact>
        <Fact label={t('changes.review.baseRevision')}>
          {request.baseRevision}
        </Fact>
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h4">
          {t('changes.review.reason')}
        </Typography>
        <Typography variant="body2" style={{ whiteSpace: 'pre-wrap' }}>
          {request.reason || t('changes.review.noReason')}
        </Typography>
        {request.change.ownedEditReason && (
          <Typography variant="body2" style={{ whiteSpace: 'pre-wrap' }}>
            {`${t('changes.review.ownedEditReason')}: ${
              request.change.ownedEditReason
            }`}
          </Typography>
        )}
      </Box>
      {fields.length > 0 && (
        <Box component="ul" m={0} pl={3}>
          {fields.map(line => (
            <Typography key={line} component="li" variant="body2">
              {line}
            </Typography>
          ))}
        </Box>
      )}
      {movedOn && (
        <Alert severity="warning">{t('changes.review.movedOn')}</Alert>
      )}
      {pending && (
        <ChangeComparison
          location={props.location}
          request={request}
          liveRevision={summary.resourceVersion}
        />
      )}
      {pending && <OwnershipBanner secret={summary} compact />}
      {pending && <ConsumersLine location={props.location} />}
      <Box>
        <Typography variant="subtitle2" component="h4">
          {t('changes.review.decisions')}
        </Typography>
        {request.decisions.length === 0 &&
          !request.bypass &&
          !request.ended && (
            <Typography variant="body2">
              {t('changes.review.noDecisions')}
            </Typography>
          )}
        <Box component="ul" m={0} pl={3}>
          {[...approvals, ...rejections].map(d => (
            <Typography
              key={`${d.decision}-${d.by}`}
              component="li"
              variant="body2"
            >
              {d.decision === 'approve'
                ? t('changes.review.approvedBy', { by: d.by })
                : t('changes.review.rejectedBy', { by: d.by })}
              {' · '}
              <RelativeTime value={d.at} />
              {d.comment && `: ${d.comment}`}
            </Typography>
          ))}
          {request.bypass && (
            <Typography component="li" variant="body2">
              {t('changes.review.bypassedBy', {
                by: request.bypass.by,
                reason: request.bypass.reason,
              })}
            </Typography>
          )}
          {request.ended && request.state !== 'applied' && (
            <Typography component="li" variant="body2">
              {t('changes.review.endedBy', { by: request.ended.by })}
              {' · '}
              <RelativeTime value={request.ended.at} />
              {request.ended.note && `: ${request.ended.note}`}
            </Typography>
          )}
        </Box>
        {request.appliedVersion !== undefined && (
          <Typography variant="body2">
            {t('changes.review.appliedVersion', {
              version: String(request.appliedVersion),
            })}
          </Typography>
        )}
      </Box>
      {(offered.approve ||
        offered.reject ||
        offered.withdraw ||
        offered.bypass) && (
        <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
          {offered.approve && (
            <Button
              variant="contained"
              color="primary"
              onClick={() => setDeciding('approve')}
            >
              {t('changes.decide.approve')}
            </Button>
          )}
          {offered.reject && (
            <Button variant="outlined" onClick={() => setDeciding('reject')}>
              {t('changes.decide.reject')}
            </Button>
          )}
          {offered.withdraw && (
            <Button variant="outlined" onClick={() => setDeciding('withdraw')}>
              {t('changes.decide.withdraw')}
            </Button>
          )}
          {offered.bypass && (
            <Button
              variant="outlined"
              color="secondary"
              onClick={() => setDeciding('bypass')}
            >
              {t('changes.decide.bypass')}
            </Button>
          )}
        </Box>
      )}
      {deciding && (
        <DecideDialog
          location={props.location}
          request={request}
          action={deciding}
          onClose={() => setDeciding(undefined)}
          onDecided={after => {
            setDeciding(undefined);
            props.onDecided(after);
          }}
        />
      )}
    </Box>
  );
}
