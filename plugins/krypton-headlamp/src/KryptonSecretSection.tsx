import { KryptonError, isProposalSecret } from '@krypton/core';
import { SectionBox } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { approvalBlock } from './approvalBlock';
import { ConsumersSection } from './consumers/ConsumersSection';
import { HeadlampKrypton } from './engines';
import { HistorySection } from './history/HistorySection';
import { text } from './messages';
import { OwnershipBanner } from './owner/OwnershipBanner';
import {
  HeadlampResource,
  isManaged,
  managedLabel,
  shownSecret,
} from './shownSecret';

export interface KryptonSecretSectionProps {
  resource: HeadlampResource;
  /** Krypton's engines for a cluster; throws when they cannot run here (no Web Crypto). */
  connect: (cluster: string) => HeadlampKrypton;
}

type Connection = { krypton: HeadlampKrypton } | { failure: string };

function connectTo(
  connect: (cluster: string) => HeadlampKrypton,
  cluster: string,
): Connection {
  try {
    return { krypton: connect(cluster) };
  } catch (error) {
    // Krypton's own refusals carry fixed texts (WEB_CRYPTO_MISSING); nothing else is shown.
    if (error instanceof KryptonError) return { failure: error.message };
    throw error;
  }
}

/** The honest limits of Krypton inside Headlamp, on screen next to what it offers. */
function Limits() {
  return (
    <Alert severity="info">
      <AlertTitle>{text.section.limitsTitle}</AlertTitle>
      <Typography variant="body2" paragraph>
        {text.section.rbacOnly}
      </Typography>
      <Typography variant="body2">{text.section.outsideEdits}</Typography>
    </Alert>
  );
}

/** One part of the section, under its own heading. */
function Part(props: { title: string; children: JSX.Element }) {
  return (
    <Box component="section" aria-label={props.title}>
      <Typography variant="h6" component="h3" gutterBottom>
        {props.title}
      </Typography>
      {props.children}
    </Box>
  );
}

/**
 * Krypton's section on Headlamp's Secret details view: the tool that owns the Secret, if any, and
 * what a change of it comes to; the History and the Consumers of a Krypton-managed Secret, as two
 * parts of one section. Both run on one connection and sit under
 * one statement of the limits, and both give way to the same note on an unmanaged Secret or a
 * snapshot. An insecure context (no Web Crypto) gets Krypton's refusal instead of the section.
 */
export function KryptonSecretSection(props: KryptonSecretSectionProps) {
  const secret = shownSecret(props.resource);
  const { connect } = props;
  const cluster = secret?.cluster;
  const connection = useMemo(
    () => (cluster === undefined ? undefined : connectTo(connect, cluster)),
    [connect, cluster],
  );
  if (!secret || !connection) return null;

  if ('failure' in connection)
    return (
      <SectionBox title={text.section.title}>
        <Alert severity="warning">
          <AlertTitle>{text.section.webCryptoTitle}</AlertTitle>
          {connection.failure}
        </Alert>
      </SectionBox>
    );

  const { krypton } = connection;
  const stored = krypton.live.isStorageObject(secret.native);
  let body: JSX.Element;
  if (stored) {
    body = (
      <Typography variant="body2">
        {isProposalSecret(secret.native, krypton.live.keys)
          ? text.section.proposal
          : text.section.snapshot}
      </Typography>
    );
  } else if (!isManaged(secret, krypton.settings.annotationPrefix)) {
    body = (
      <Typography variant="body2">
        {text.section.notManaged(
          managedLabel(krypton.settings.annotationPrefix),
        )}
      </Typography>
    );
  } else {
    const approval = approvalBlock(
      secret.native,
      krypton.settings.annotationPrefix,
    );
    body = (
      <>
        {approval && (
          <Alert severity="info">
            <AlertTitle>{text.approval.title}</AlertTitle>
            <Typography variant="body2" paragraph>
              {text.approval.notice(approval)}
            </Typography>
            <Typography variant="body2">{text.approval.rulesUnseen}</Typography>
          </Alert>
        )}
        <Part title={text.section.historyTitle}>
          <HistorySection krypton={krypton} secret={secret} />
        </Part>
        <Part title={text.section.consumersTitle}>
          <ConsumersSection krypton={krypton} secret={secret} />
        </Part>
      </>
    );
  }
  return (
    <SectionBox title={text.section.title}>
      <Box display="flex" flexDirection="column" gap={2}>
        <Limits />
        {/* Managed or not: what a change comes to is worth knowing before any edit. A
            snapshot or a proposal is Krypton's own object, which no tool owns. */}
        {!stored && (
          <OwnershipBanner
            secret={krypton.live.toSummary(secret.native)}
            sync={{ krypton, namespace: secret.namespace, name: secret.name }}
          />
        )}
        {body}
      </Box>
    </SectionBox>
  );
}
