import { InfoCard, Progress } from '@backstage/core-components';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import {
  SecretDto,
  SecretSummary,
  SecretWriteAnswer,
  VersionSummary,
  tryNormalizeEntityRef,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import { ActionDecisions } from '../access/decide';
import { useKryptonConfig } from '../access/useKryptonConfig';
import { RelativeTime } from '../time/RelativeTime';
import { CompareVersions } from './CompareVersions';
import { retentionOutlook } from './retention';
import { newestRestorable, restoreBlock } from './restoreBlock';
import { PinnedLive, RestoreDialog } from './RestoreDialog';
import { LiveComparison, liveComparison } from './sides';
import {
  HistoryState,
  messageOf,
  useVersionHistory,
} from './useVersionHistory';
import { VersionDetails } from './VersionDetails';

const COLUMNS = 5;
const UNREACHABLE = 'Krypton could not be reached.';

export interface HistoryTabProps {
  location: SecretLocation;
  /** The live Secret's metadata; undefined when it could not be read (e.g. 403). */
  summary?: SecretSummary;
  /** The live Secret with values when the user may reveal them, for the diff against live. */
  live?: SecretDto;
  /**
   * The live values are still loading. Roll back waits for them, so that its confirmation
   * compares values rather than key names only.
   */
  liveLoading?: boolean;
  /** Undefined when summary is; restore is then not offered. */
  decisions?: ActionDecisions;
  /** Counts the reloads the page asked for (a change made elsewhere, a delete): each new one reloads the list. */
  reloads?: number;
  /** Refetches the live Secret (summary and values) in the parent; rejects on failure. */
  reloadLive: () => Promise<void>;
  /**
   * A successful restore, with the Secret the backend returned: without values when the user
   * may not reveal them.
   */
  onRestored: (secret: SecretWriteAnswer) => void;
  /** Open the restore flow for the newest restorable version right away (the entity tab's "Roll back…"). */
  startRestore?: boolean;
  /** Told once startRestore has been acted on, so that the page can drop it from its address. */
  onStartRestoreUsed?: () => void;
}

type FailedState = Extract<HistoryState, { status: 'failed' }>;

/**
 * A failed list load. Denial and unavailability read differently on purpose: neither may look
 * like an empty history, and an unavailable history is not evidence that snapshots are gone.
 */
function HistoryFailure(props: { state: FailedState; onRetry: () => void }) {
  const { state } = props;
  const retry = (
    <Button color="inherit" onClick={props.onRetry}>
      Retry history
    </Button>
  );
  if (state.denied) {
    return (
      <Alert severity="warning" action={retry}>
        <AlertTitle>You may not see this Secret's history</AlertTitle>
        {messageOf(state.error, UNREACHABLE)} This is not an empty history:
        Krypton did not list it for you.
      </Alert>
    );
  }
  return (
    <Alert severity="error" action={retry}>
      <AlertTitle>The history is unavailable</AlertTitle>
      {messageOf(state.error, UNREACHABLE)} This does not mean that any versions
      are gone: Krypton could not read the history right now.
    </Alert>
  );
}

function listOfVersions(versions: readonly number[]): string {
  if (versions.length === 1) return `version ${versions[0]}`;
  if (versions.length > 5) {
    return `the ${versions.length} oldest versions (${versions[0]} to ${
      versions[versions.length - 1]
    })`;
  }
  return `versions ${versions.slice(0, -1).join(', ')} and ${
    versions[versions.length - 1]
  }`;
}

/**
 * The retention in force and what the next change of values removes, as the engine prunes:
 * nothing is said when the limit is unknown (the settings could not be read, or are invalid,
 * which the page reports itself), rather than guessing.
 */
function RetentionNote(props: {
  items: readonly VersionSummary[];
  summary?: SecretSummary;
  /** The deployment's history limit; null or undefined when unknown. */
  limit?: number | null;
}) {
  const { limit } = props;
  if (typeof limit !== 'number') return null;
  const keeps = `Keeps ${limit} ${limit === 1 ? 'version' : 'versions'}`;
  const outlook = retentionOutlook(props.items, props.summary?.version, limit);
  let text: string;
  if (!outlook) {
    text = `${keeps}; the oldest are removed when a change of values saves a version beyond that.`;
  } else if (outlook.removes.length > 0) {
    text = `${keeps}; the next change of values (an edit or a restore) removes ${listOfVersions(
      outlook.removes,
    )}.`;
  } else if (outlook.room > 0) {
    text = `${keeps}; ${outlook.room} more ${
      outlook.room === 1 ? 'fits' : 'fit'
    } before a change of values removes the oldest.`;
  } else {
    // Full, but the next change reuses the snapshot of the live revision instead of adding one.
    text = `${keeps}; the history is full, so changes of values after the next one remove the oldest.`;
  }
  return (
    <Typography variant="body2" color="textSecondary">
      {text}
    </Typography>
  );
}

/** Who took a snapshot: a link to their catalog entity, or the text as recorded when it is no ref. */
function SnapshotBy({ actor }: { actor: string }) {
  // The annotation is written by Krypton, but anyone who may edit the snapshot's metadata could
  // have changed it: only a well-formed user or group ref becomes a link.
  const ref = tryNormalizeEntityRef(actor);
  return ref ? <EntityRefLink entityRef={ref} /> : <>{actor}</>;
}

function EmptyHistory() {
  return (
    <Box>
      <Typography variant="body1" paragraph>
        No versions yet: Krypton keeps a version each time it changes the
        Secret's values. The first edit or restore archives the current state as
        a version you can restore later.
      </Typography>
      <Typography variant="body2" color="textSecondary">
        Copies made before Krypton bound history to the live Secret are not
        listed here, and neither are those of an earlier Secret with the same
        name; an empty list does not mean that they were erased.
      </Typography>
    </Box>
  );
}

interface VersionTableProps {
  items: VersionSummary[];
  summary?: SecretSummary;
  live: LiveComparison;
  /** Why versions cannot be opened; undefined when they can. */
  viewBlock?: string;
  /** Why restore is not offered; undefined when it is. */
  block?: string;
  blockId: string;
  viewBlockId: string;
  expanded: readonly number[];
  onToggle: (version: number) => void;
  onRestore: (version: VersionSummary) => void;
  loadVersion: ReturnType<typeof useVersionHistory>['loadVersion'];
}

function VersionTable(props: VersionTableProps) {
  const baseId = useId();
  const { items, summary } = props;
  return (
    <Table size="small" aria-label="Versions">
      <TableHead>
        <TableRow>
          <TableCell>Version</TableCell>
          <TableCell>Snapshot by</TableCell>
          <TableCell>Snapshot at</TableCell>
          <TableCell>Source type</TableCell>
          <TableCell>Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((item, index) => {
          const open = props.expanded.includes(item.version);
          const panelId = `${baseId}-v${item.version}`;
          return [
            <TableRow key={item.version}>
              <TableCell component="th" scope="row" role="rowheader">
                Version {item.version}
                {summary &&
                  item.sourceResourceVersion === summary.resourceVersion && (
                    <Typography
                      variant="caption"
                      display="block"
                      color="textSecondary"
                    >
                      taken from the live revision, so it holds the live state
                    </Typography>
                  )}
              </TableCell>
              <TableCell>
                <SnapshotBy actor={item.snapshotBy} />
              </TableCell>
              <TableCell>
                <RelativeTime value={item.snapshotAt} />
              </TableCell>
              <TableCell>{item.sourceType}</TableCell>
              <TableCell>
                <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
                  <Button
                    size="small"
                    aria-label={`${open ? 'Hide' : 'View'} values of version ${
                      item.version
                    }`}
                    aria-expanded={open}
                    aria-controls={open ? panelId : undefined}
                    aria-describedby={
                      props.viewBlock ? props.viewBlockId : undefined
                    }
                    disabled={props.viewBlock !== undefined}
                    onClick={() => props.onToggle(item.version)}
                  >
                    {open ? 'Hide values' : 'View values'}
                  </Button>
                  <Button
                    size="small"
                    variant="outlined"
                    aria-label={`Restore version ${item.version}`}
                    aria-describedby={props.block ? props.blockId : undefined}
                    disabled={props.block !== undefined}
                    onClick={() => props.onRestore(item)}
                  >
                    Restore…
                  </Button>
                </Box>
              </TableCell>
            </TableRow>,
            open && (
              <TableRow key={`${item.version}-values`}>
                <TableCell colSpan={COLUMNS} id={panelId}>
                  <VersionDetails
                    version={item}
                    previous={items[index + 1]}
                    live={props.live}
                    loadVersion={props.loadVersion}
                  />
                </TableCell>
              </TableRow>
            ),
          ];
        })}
      </TableBody>
    </Table>
  );
}

interface Notice {
  severity: 'success' | 'info';
  text: string;
}

interface OpenRestore {
  target: VersionSummary;
  pinned: PinnedLive;
}

/**
 * The History tab of a Secret: its retained versions, newest first, with their values on demand
 * and restore behind a confirmation. It works without the live summary too (a reader the summary
 * route refused): the list still answers for itself, and restore is then not offered.
 *
 * A failed refresh replaces the list with the failure and its Retry, rather than keeping the
 * earlier list on screen marked as stale: restore choices from that list may no longer exist,
 * and a disabled stale list would invite reading it as the current history.
 */
export function HistoryTab(props: HistoryTabProps) {
  const { location, summary, decisions, reloadLive, onRestored } = props;
  const history = useVersionHistory(location);
  const historyLimit = useKryptonConfig().config?.historyLimit;
  const blockId = useId();
  const viewBlockId = useId();
  const [expanded, setExpanded] = useState<number[]>([]);
  const [dialog, setDialog] = useState<OpenRestore>();
  const [notice, setNotice] = useState<Notice>();
  const started = useRef(false);

  const block = restoreBlock(summary, decisions);
  const canReveal = decisions?.reveal.allowed;
  const viewBlock =
    canReveal === false
      ? `You may not reveal values, so versions cannot be opened. ${
          decisions?.reveal.reason ?? ''
        }`.trim()
      : undefined;
  const live = useMemo(
    () => liveComparison(summary, props.live, canReveal),
    [summary, props.live, canReveal],
  );

  const { refetch } = history;
  // Opened versions close on every reload, so that a reload never reads values on its own.
  const reloadHistory = useCallback(() => {
    setExpanded([]);
    return refetch();
  }, [refetch]);

  // The page's reloads (a change made elsewhere, a delete) refetch the list: its restore choices
  // may have moved or gone.
  const reloads = props.reloads ?? 0;
  const reloadsDone = useRef(reloads);
  useEffect(() => {
    if (reloads === reloadsDone.current) return;
    reloadsDone.current = reloads;
    reloadHistory();
  }, [reloads, reloadHistory]);

  const openRestore = useCallback(
    (target: VersionSummary) => {
      if (!summary || block !== undefined) return;
      setNotice(undefined);
      setDialog({ target, pinned: { summary, live } });
    },
    [summary, block, live],
  );

  // "Roll back…" opens the newest restorable version once, as soon as the list is known.
  const { state } = history;
  const { onStartRestoreUsed } = props;
  useEffect(() => {
    if (
      !props.startRestore ||
      started.current ||
      state.status !== 'loaded' ||
      (canReveal === true && props.liveLoading)
    ) {
      return;
    }
    started.current = true;
    onStartRestoreUsed?.();
    // When restore is blocked its reason is already on screen next to the list.
    if (!summary || block !== undefined) return;
    const target = newestRestorable(state.items, summary.resourceVersion);
    if (target) {
      openRestore(target);
    } else {
      setNotice({
        severity: 'info',
        text: 'There is no earlier version to roll back to.',
      });
    }
  }, [
    props.startRestore,
    props.liveLoading,
    canReveal,
    state,
    summary,
    block,
    openRestore,
    onStartRestoreUsed,
  ]);

  const reloadLatest = async () => {
    try {
      await reloadLive();
    } catch (e) {
      throw new Error(
        `The live Secret could not be reloaded: ${messageOf(e, UNREACHABLE)}`,
      );
    }
    const failed = await reloadHistory();
    if (failed) {
      throw new Error(
        `The history could not be reloaded: ${messageOf(failed, UNREACHABLE)}`,
      );
    }
    setDialog(undefined);
  };

  const restored =
    (pinned: PinnedLive, target: VersionSummary) =>
    (secret: SecretWriteAnswer) => {
      setDialog(undefined);
      const unchanged =
        secret.uid === pinned.summary.uid &&
        secret.resourceVersion === pinned.summary.resourceVersion;
      setNotice({
        severity: 'success',
        text: unchanged
          ? `Version ${target.version} holds the same values as the live Secret, so nothing was changed.`
          : `Restored version ${target.version}. The previous live state was archived as version ${pinned.summary.version}.`,
      });
      onRestored(secret);
      reloadHistory();
    };

  let body;
  if (state.status === 'loading') {
    body = (
      <Box>
        <Typography variant="body2" role="status">
          Loading history…
        </Typography>
        <Progress />
      </Box>
    );
  } else if (state.status === 'failed') {
    body = <HistoryFailure state={state} onRetry={reloadHistory} />;
  } else if (state.items.length === 0) {
    body = (
      <Box display="flex" flexDirection="column" style={{ gap: 8 }}>
        <EmptyHistory />
        <RetentionNote
          items={state.items}
          summary={summary}
          limit={historyLimit}
        />
      </Box>
    );
  } else {
    body = (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <Typography variant="body2" color="textSecondary">
          Each version is the state that a change through Krypton replaced,
          saved before the new state was written. Newest first.
        </Typography>
        <RetentionNote
          items={state.items}
          summary={summary}
          limit={historyLimit}
        />
        {block && (
          <Alert severity="info" id={blockId}>
            Restore is not available: {block}
          </Alert>
        )}
        {viewBlock && (
          <Alert severity="info" id={viewBlockId}>
            {viewBlock}
          </Alert>
        )}
        <VersionTable
          items={state.items}
          summary={summary}
          live={live}
          viewBlock={viewBlock}
          block={block}
          blockId={blockId}
          viewBlockId={viewBlockId}
          expanded={expanded}
          onToggle={version =>
            setExpanded(open =>
              open.includes(version)
                ? open.filter(v => v !== version)
                : [...open, version],
            )
          }
          onRestore={openRestore}
          loadVersion={history.loadVersion}
        />
        {state.items.length + (live.side ? 1 : 0) >= 2 && (
          <Box>
            <Typography variant="h6" component="h3" gutterBottom>
              Compare two versions
            </Typography>
            <CompareVersions
              items={state.items}
              live={live}
              viewBlock={viewBlock}
              viewBlockId={viewBlockId}
              loadVersion={history.loadVersion}
            />
          </Box>
        )}
      </Box>
    );
  }

  return (
    <InfoCard
      title="History"
      action={
        state.status === 'loaded' ? (
          <Button onClick={reloadHistory}>Reload history</Button>
        ) : undefined
      }
    >
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        {notice && (
          <Alert
            severity={notice.severity}
            onClose={() => setNotice(undefined)}
          >
            {notice.text}
          </Alert>
        )}
        {body}
      </Box>
      {dialog && (
        <RestoreDialog
          location={location}
          target={dialog.target}
          pinned={dialog.pinned}
          current={summary}
          block={block}
          historyStatus={state.status}
          canReadValues={canReveal !== false}
          loadVersion={history.loadVersion}
          onCancel={() => setDialog(undefined)}
          onReloadLatest={reloadLatest}
          onRestored={restored(dialog.pinned, dialog.target)}
        />
      )}
    </InfoCard>
  );
}
