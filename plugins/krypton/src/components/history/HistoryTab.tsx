import { InfoCard, Progress } from '@backstage/core-components';
import {
  SecretDto,
  SecretSummary,
  SecretWriteAnswer,
  VersionSummary,
  newestRestorable,
  retentionOutlook,
  LiveComparison,
  liveComparison,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import {
  Fragment,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import { KryptonT, useKryptonT } from '../../translation';
import { ActionDecisions } from '../access/decide';
import { useKryptonConfig } from '../access/useKryptonConfig';
import { RelativeTime } from '../time/RelativeTime';
import { ChangeActor } from './ChangeActor';
import { CompareVersions } from './CompareVersions';
import { restoreBlock } from './restoreBlock';
import { PinnedLive, RestoreDialog } from './RestoreDialog';
import {
  HistoryState,
  serverMessage,
  useVersionHistory,
} from './useVersionHistory';
import { VersionDetails } from './VersionDetails';

const COLUMNS = 5;

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
  /**
   * Reads the live values in the parent, for a comparison with live or a restore's confirmation:
   * they are read only when the user asks for one of those. Undefined when the user may not
   * reveal them.
   */
  loadLive?: () => void;
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
  const t = useKryptonT();
  const message = serverMessage(state.error) ?? t('history.unreachable');
  const retry = (
    <Button color="inherit" onClick={props.onRetry}>
      {t('history.failure.retry')}
    </Button>
  );
  if (state.denied) {
    return (
      <Alert severity="warning" action={retry}>
        <AlertTitle>{t('history.failure.deniedTitle')}</AlertTitle>
        {t('history.failure.denied', { message })}
      </Alert>
    );
  }
  return (
    <Alert severity="error" action={retry}>
      <AlertTitle>{t('history.failure.unavailableTitle')}</AlertTitle>
      {t('history.failure.unavailable', { message })}
    </Alert>
  );
}

function listOfVersions(versions: readonly number[], t: KryptonT): string {
  const last = String(versions[versions.length - 1]);
  if (versions.length === 1) {
    return t('history.retention.oneVersion', { version: last });
  }
  if (versions.length > 5) {
    return t('history.retention.oldestVersions', {
      total: String(versions.length),
      first: String(versions[0]),
      last,
    });
  }
  return t('history.retention.someVersions', {
    list: versions.slice(0, -1).join(', '),
    last,
  });
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
  const t = useKryptonT();
  if (typeof limit !== 'number') return null;
  const keeps = t('history.retention.keeps', { count: limit });
  const outlook = retentionOutlook(props.items, props.summary?.version, limit);
  let text: string;
  if (!outlook) {
    text = t('history.retention.unknown', { keeps });
  } else if (outlook.removes.length > 0) {
    text = t('history.retention.removes', {
      keeps,
      versions: listOfVersions(outlook.removes, t),
    });
  } else if (outlook.room > 0) {
    text = t('history.retention.room', { keeps, count: outlook.room });
  } else {
    // Full, but the next change reuses the snapshot of the live revision instead of adding one.
    text = t('history.retention.full', { keeps });
  }
  return (
    <Typography variant="body2" color="textSecondary">
      {text}
    </Typography>
  );
}

function EmptyHistory() {
  const t = useKryptonT();
  return (
    <Box>
      <Typography variant="body1" paragraph>
        {t('history.empty.body')}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {t('history.empty.note')}
      </Typography>
    </Box>
  );
}

/**
 * Whole words in a narrow table (an 800 px window): a version's name and a button's label stay on
 * one line, and the row's buttons wrap as whole buttons.
 */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * A Secret type, which may break after its slashes: "kubernetes.io/dockerconfigjson" has no
 * other place to wrap, and the column would otherwise be as wide as the whole type.
 */
function SourceType({ type }: { type: string }) {
  return (
    <>
      {type.split('/').map((part, i) => (
        // The parts of one type never move, so their places are their keys.
        <Fragment key={i}>
          {i > 0 && '/'}
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
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

/**
 * Backstage's cells break words anywhere to fit a squeezed column: at an 800 px window the actor,
 * the time and the type broke mid-word. Words stay whole and wrap between each other, and the
 * cells give up most of MUI's 24 px right padding, which five columns cannot spare there.
 */
const useVersionTableStyles = makeStyles(theme => ({
  table: {
    '& th, & td': {
      wordBreak: 'normal',
      overflowWrap: 'normal',
      paddingRight: theme.spacing(1),
    },
  },
}));

function VersionTable(props: VersionTableProps) {
  const baseId = useId();
  const t = useKryptonT();
  const classes = useVersionTableStyles();
  const { items, summary } = props;
  return (
    <Table
      size="small"
      className={classes.table}
      aria-label={t('history.table.label')}
    >
      <TableHead>
        <TableRow>
          <TableCell>{t('history.table.version')}</TableCell>
          <TableCell>{t('history.table.snapshotBy')}</TableCell>
          <TableCell>{t('history.table.snapshotAt')}</TableCell>
          <TableCell>{t('history.table.sourceType')}</TableCell>
          <TableCell>{t('history.table.actions')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((item, index) => {
          const open = props.expanded.includes(item.version);
          const panelId = `${baseId}-v${item.version}`;
          const version = String(item.version);
          return [
            <TableRow key={item.version}>
              <TableCell component="th" scope="row" role="rowheader">
                <span style={NO_WRAP}>
                  {t('history.table.versionName', { version })}
                </span>
                {summary &&
                  item.sourceResourceVersion === summary.resourceVersion && (
                    <Typography
                      variant="caption"
                      display="block"
                      color="textSecondary"
                    >
                      {t('history.table.fromLiveRevision')}
                    </Typography>
                  )}
              </TableCell>
              <TableCell>
                <ChangeActor change={item} />
              </TableCell>
              <TableCell>
                <RelativeTime value={item.snapshotAt} />
              </TableCell>
              <TableCell>
                <SourceType type={item.sourceType} />
              </TableCell>
              <TableCell>
                <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
                  <Button
                    size="small"
                    style={NO_WRAP}
                    aria-label={t(
                      open
                        ? 'history.table.hideValuesOf'
                        : 'history.table.viewValuesOf',
                      { version },
                    )}
                    aria-expanded={open}
                    aria-controls={open ? panelId : undefined}
                    aria-describedby={
                      props.viewBlock ? props.viewBlockId : undefined
                    }
                    disabled={props.viewBlock !== undefined}
                    onClick={() => props.onToggle(item.version)}
                  >
                    {open
                      ? t('history.table.hideValues')
                      : t('history.table.viewValues')}
                  </Button>
                  <Button
                    size="small"
                    variant="outlined"
                    style={NO_WRAP}
                    aria-label={t('history.table.restoreVersion', { version })}
                    aria-describedby={props.block ? props.blockId : undefined}
                    disabled={props.block !== undefined}
                    onClick={() => props.onRestore(item)}
                  >
                    {t('history.table.restore')}
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
  const t = useKryptonT();
  const history = useVersionHistory(location);
  const historyLimit = useKryptonConfig().config?.historyLimit;
  const blockId = useId();
  const viewBlockId = useId();
  const [expanded, setExpanded] = useState<number[]>([]);
  const [dialog, setDialog] = useState<OpenRestore>();
  const [notice, setNotice] = useState<Notice>();
  const started = useRef(false);

  const block = restoreBlock(summary, decisions, t);
  const canReveal = decisions?.reveal.allowed;
  const viewBlock =
    canReveal === false
      ? t('history.blocks.viewDenied', {
          reason: decisions?.reveal.reason ?? '',
        }).trim()
      : undefined;
  const live = useMemo(
    () => liveComparison(summary, props.live, canReveal),
    [summary, props.live, canReveal],
  );

  // The live values, read when a comparison with live or a confirmation first needs them.
  const { loadLive, liveLoading } = props;
  const needLive = useCallback(() => {
    if (
      canReveal === true &&
      !liveLoading &&
      (live.reason === 'notLoaded' || live.reason === 'otherRevision')
    )
      loadLive?.();
  }, [canReveal, liveLoading, live.reason, loadLive]);
  const liveAsked = useRef(false);

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
      needLive();
      setDialog({ target, pinned: { summary, live } });
    },
    [summary, block, live, needLive],
  );

  // A confirmation opened before the live values arrived takes them once they do, when they are
  // of the revision it pinned: that is no change of what the user reviews, only its values.
  useEffect(() => {
    if (!dialog || dialog.pinned.live.reason !== 'notLoaded') return;
    const now = liveComparison(dialog.pinned.summary, props.live, canReveal);
    if (now.side?.values)
      setDialog({ ...dialog, pinned: { ...dialog.pinned, live: now } });
  }, [dialog, props.live, canReveal]);

  // "Roll back…" opens the newest restorable version once, as soon as the list is known.
  const { state } = history;
  const { onStartRestoreUsed } = props;
  useEffect(() => {
    if (!props.startRestore || started.current || state.status !== 'loaded')
      return;
    // Its confirmation compares values: they are read first, once.
    if (
      canReveal === true &&
      loadLive &&
      !liveAsked.current &&
      live.reason === 'notLoaded'
    ) {
      liveAsked.current = true;
      loadLive();
      return;
    }
    if (canReveal === true && props.liveLoading) return;
    started.current = true;
    onStartRestoreUsed?.();
    // When restore is blocked its reason is already on screen next to the list.
    if (!summary || block !== undefined) return;
    const target = newestRestorable(state.items, summary.resourceVersion);
    if (target) {
      openRestore(target);
    } else {
      setNotice({ severity: 'info', text: t('history.notices.noEarlier') });
    }
  }, [
    props.startRestore,
    props.liveLoading,
    loadLive,
    live.reason,
    canReveal,
    state,
    summary,
    block,
    openRestore,
    onStartRestoreUsed,
    t,
  ]);

  const reloadLatest = async () => {
    try {
      await reloadLive();
    } catch (e) {
      throw new Error(
        t('history.failure.liveReload', {
          message: serverMessage(e) ?? t('history.unreachable'),
        }),
      );
    }
    const failed = await reloadHistory();
    if (failed) {
      throw new Error(
        t('history.failure.historyReload', {
          message: serverMessage(failed) ?? t('history.unreachable'),
        }),
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
          ? t('history.notices.unchanged', { version: String(target.version) })
          : t('history.notices.restored', {
              version: String(target.version),
              archived: String(pinned.summary.version),
            }),
      });
      onRestored(secret);
      reloadHistory();
    };

  let body;
  if (state.status === 'loading') {
    body = (
      <Box>
        <Typography variant="body2" role="status">
          {t('history.card.loading')}
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
          {t('history.card.intro')}
        </Typography>
        <RetentionNote
          items={state.items}
          summary={summary}
          limit={historyLimit}
        />
        {block && (
          <Alert severity="info" id={blockId}>
            {t('history.blocks.restoreUnavailable', { reason: block })}
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
          onToggle={version => {
            // An opened version shows what differs from live.
            if (!expanded.includes(version)) needLive();
            setExpanded(open =>
              open.includes(version)
                ? open.filter(v => v !== version)
                : [...open, version],
            );
          }}
          onRestore={openRestore}
          loadVersion={history.loadVersion}
        />
        {state.items.length + (live.side ? 1 : 0) >= 2 && (
          <Box>
            <Typography variant="h6" component="h3" gutterBottom>
              {t('history.card.compareTitle')}
            </Typography>
            <CompareVersions
              items={state.items}
              live={live}
              viewBlock={viewBlock}
              viewBlockId={viewBlockId}
              loadVersion={history.loadVersion}
              onCompare={(from, to) => {
                if (from.kind === 'live' || to.kind === 'live') needLive();
              }}
            />
          </Box>
        )}
      </Box>
    );
  }

  return (
    <InfoCard
      title={t('history.card.title')}
      action={
        state.status === 'loaded' ? (
          <Button onClick={reloadHistory}>{t('history.card.reload')}</Button>
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
