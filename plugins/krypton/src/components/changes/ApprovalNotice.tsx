import { SecretApproval } from '@krypton/core';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useKryptonT } from '../../translation';

/** The refs as one line: the approvers are user and group refs, as the policy froze them. */
export const refsText = (refs: readonly string[]) => refs.join(', ');

/**
 * Says that the Secret's changes need approval, and what the policy asks: how many approvals, from
 * whom, and what else; the server's word where the Secret's own annotation was misread.
 */
export function ApprovalNotice(props: { approval: SecretApproval }) {
  const { approval } = props;
  const t = useKryptonT();
  const nobody = approval.approvers.length === 0;
  return (
    <Alert severity={nobody ? 'warning' : 'info'}>
      <AlertTitle>{t('changes.covered.title')}</AlertTitle>
      {nobody
        ? t('changes.covered.noApprovers')
        : t('changes.covered.body', {
            count: approval.requiredApprovals,
            approvers: refsText(approval.approvers),
          })}
      {approval.allowSelfApproval && ` ${t('changes.covered.selfCounts')}`}
      {approval.enforcement === 'soft' &&
        ` ${t('changes.covered.soft', {
          groups: refsText(approval.bypassGroups),
        })}`}
      {` ${t('changes.covered.expires', {
        hours: String(approval.expiresAfterHours),
      })}`}
      {approval.annotationProblem && ` ${approval.annotationProblem}`}
    </Alert>
  );
}
