import {
  LiveComparison,
  RestoreBlock,
  VersionSummary,
  liveComparison,
  messages,
  restoreBlockOf,
  retentionOutlook,
  valuesShown,
} from '@krypton/core';
import { Loader } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import {
  describeOutsideChange,
  englishHistoryT,
} from '@krypton/plugin-krypton-react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Fragment, useId, useMemo, useState } from 'react';
import { HeadlampKrypton } from '../engines';
import { text } from '../messages';
import { approvalBlock } from '../approvalBlock';
import { ownedChangeBlock } from '../owner/ownedBlock';
import { ShownSecret } from '../shownSecret';
import { RelativeTime } from '../time/RelativeTime';
import { Failure, failureOf } from './failure';
import { RestoreDialog } from './RestoreDialog';
import { useVersions, VersionsState } from './useVersions';
import { VersionChanges } from './VersionChanges';

const COLUMNS = 5;

/** Why restore is not offered, in words; the API's fixed messages verbatim. */
const BLOCK_TEXT: Record<RestoreBlock, string> = {
  pendingDeletion: text.blocks.pendingDeletion,
  immutable: text.blocks.immutable,
  serviceAccountToken: messages.serviceAccountToken,
  invalidCounter: messages.invalidCounter,
  liveUnreadable: text.blocks.liveUnreadable,
  denied: text.blocks.denied,
};

type Restore =
  | { status: 'idle' }
  | { status: 'confirm'; version: number; pinned: string; running: boolean }
  | { status: 'done'; notice: string }
  | { status: 'failed'; failure: Failure };

function ListFailure(props: { failure: Failure; onRetry: () => void }) {
  const retry = (
    <Button color="inherit" onClick={props.onRetry}>
      {text.history.retry}
    </Button>
  );
  // Neither may look like an empty history: an unreadable history is no evidence that none exists.
  if (props.failure.kind === 'denied')
    return (
      <Alert severity="warning" action={retry}>
        <AlertTitle>{text.history.deniedTitle}</AlertTitle>
        {text.history.denied}
      </Alert>
    );
  return (
    <Alert severity="error" action={retry}>
      <AlertTitle>{text.history.unavailableTitle}</AlertTitle>
      {text.history.unavailable(props.failure.message)}
    </Alert>
  );
}

function RestoreFailure(props: { failure: Failure; onReload: () => void }) {
  const { failure } = props;
  if (failure.kind === 'conflict')
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" onClick={props.onReload}>
            {text.history.reload}
          </Button>
        }
      >
        <AlertTitle>{text.restore.conflictTitle}</AlertTitle>
        {text.restore.conflict(failure.message)}
      </Alert>
    );
  if (failure.kind === 'denied')
    return (
      <Alert severity="error">
        <AlertTitle>{text.restore.deniedTitle}</AlertTitle>
        {text.restore.denied}
      </Alert>
    );
  return (
    <Alert severity="error">
      <AlertTitle>{text.restore.failedTitle}</AlertTitle>
      {text.restore.failed(failure.message)}
    </Alert>
  );
}

function VersionTable(props: {
  krypton: HeadlampKrypton;
  secret: ShownSecret;
  items: VersionSummary[];
  live: LiveComparison;
  block?: string;
  blockId: string;
  onRestore: (version: number) => void;
}) {
  const { items, secret } = props;
  const baseId = useId();
  const [open, setOpen] = useState<number[]>([]);
  const liveRevision = secret.native.metadata.resourceVersion;
  return (
    <Table size="small" aria-label={text.history.tableLabel}>
      <TableHead>
        <TableRow>
          <TableCell>{text.history.columns.version}</TableCell>
          <TableCell>{text.history.columns.snapshotBy}</TableCell>
          <TableCell>{text.history.columns.snapshotAt}</TableCell>
          <TableCell>{text.history.columns.sourceType}</TableCell>
          <TableCell>{text.history.columns.actions}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map(item => {
          const shown = open.includes(item.version);
          const panelId = `${baseId}-v${item.version}`;
          return (
            <Fragment key={item.version}>
              <TableRow>
                <TableCell component="th" scope="row">
                  {text.history.versionName(item.version)}
                  {item.sourceResourceVersion === liveRevision && (
                    <Typography
                      variant="caption"
                      display="block"
                      color="text.secondary"
                    >
                      {text.history.fromLiveRevision}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {describeOutsideChange(item, englishHistoryT) ??
                    item.snapshotBy}
                </TableCell>
                <TableCell>
                  <RelativeTime value={item.snapshotAt} />
                </TableCell>
                <TableCell>{item.sourceType}</TableCell>
                <TableCell>
                  <Box display="flex" flexWrap="wrap" gap={1}>
                    <Button
                      size="small"
                      aria-label={(shown
                        ? text.history.hideChangesOf
                        : text.history.showChangesOf)(item.version)}
                      aria-expanded={shown}
                      aria-controls={shown ? panelId : undefined}
                      onClick={() =>
                        setOpen(o =>
                          shown
                            ? o.filter(v => v !== item.version)
                            : [...o, item.version],
                        )
                      }
                    >
                      {shown
                        ? text.history.hideChanges
                        : text.history.showChanges}
                    </Button>
                    <Button
                      size="small"
                      variant="outlined"
                      aria-label={text.history.restoreVersion(item.version)}
                      aria-describedby={props.block ? props.blockId : undefined}
                      disabled={props.block !== undefined}
                      onClick={() => props.onRestore(item.version)}
                    >
                      {text.history.restore}
                    </Button>
                  </Box>
                </TableCell>
              </TableRow>
              {shown && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} id={panelId}>
                    <VersionChanges
                      key={`${item.version}@${liveRevision}`}
                      krypton={props.krypton}
                      secret={secret}
                      version={item.version}
                      live={props.live}
                    />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          );
        })}
      </TableBody>
    </Table>
  );
}

function Versions(props: {
  state: VersionsState;
  reload: () => void;
  children: (items: VersionSummary[]) => JSX.Element;
}) {
  const { state } = props;
  if (state.status === 'loading')
    return <Loader title={text.history.loading} />;
  if (state.status === 'failed')
    return <ListFailure failure={state.failure} onRetry={props.reload} />;
  if (state.value.length === 0)
    return <Typography variant="body2">{text.history.empty}</Typography>;
  return props.children(state.value);
}

/**
 * The History of a Krypton-managed Secret on Headlamp's details view: its versions, what
 * restoring each would change against the live Secret on the view, and restore pinned to the
 * live revision on the view. Every rule is the core's (its engines and its rules); this only
 * draws them.
 */
export function HistorySection(props: {
  krypton: HeadlampKrypton;
  secret: ShownSecret;
}) {
  const { krypton, secret } = props;
  const { state, reload } = useVersions(krypton, secret);
  const [restore, setRestore] = useState<Restore>({ status: 'idle' });
  const blockId = useId();

  const dto = useMemo(
    () => krypton.live.toDto(secret.native),
    [krypton, secret.native],
  );
  const live = useMemo(() => {
    // Krypton never shows a service-account token's values: such a Secret compares by keys.
    const shown = valuesShown(secret.native);
    return liveComparison(dto, shown ? dto : undefined, shown);
  }, [dto, secret.native]);
  // RBAC is the only gate here, and the API server applies it to the restore itself; the
  // Secret's owner may rule the change out for everyone, which the engine would refuse (409).
  const core = restoreBlockOf(dto, true);
  const block = core
    ? BLOCK_TEXT[core]
    : ownedChangeBlock(dto.owner) ??
      approvalBlock(secret.native, krypton.settings.annotationPrefix);
  const limit = krypton.settings.historyLimit;

  // The revision on screen when the user opened the confirmation: if Headlamp shows a newer one
  // meanwhile, the engine refuses the restore (409) rather than replace what was not reviewed.
  const confirm = async (version: number, pinned: string) => {
    // The Secret on the view may have changed under the open dialog: never restore past a block.
    if (block !== undefined) return;
    setRestore({ status: 'confirm', version, pinned, running: true });
    try {
      const result = await krypton.versioned.restore(
        secret.namespace,
        secret.name,
        { version, resourceVersion: pinned },
        krypton.gate,
      );
      setRestore({
        status: 'done',
        notice: result.dataChanged
          ? text.restore.restored(
              version,
              result.archive?.archivedVersion ?? null,
            )
          : text.restore.unchanged(version),
      });
      reload();
    } catch (error) {
      setRestore({ status: 'failed', failure: failureOf(error) });
    }
  };

  return (
    <Box display="flex" flexDirection="column" gap={2}>
      {restore.status === 'done' && (
        <Alert
          severity="success"
          onClose={() => setRestore({ status: 'idle' })}
        >
          {restore.notice}
        </Alert>
      )}
      {restore.status === 'failed' && (
        <RestoreFailure
          failure={restore.failure}
          onReload={() => {
            setRestore({ status: 'idle' });
            reload();
          }}
        />
      )}
      <Versions state={state} reload={reload}>
        {items => {
          const outlook =
            limit.ok && retentionOutlook(items, dto.version, limit.value);
          return (
            <Box display="flex" flexDirection="column" gap={1}>
              <Typography variant="body2">{text.history.intro}</Typography>
              {outlook && (
                <Typography variant="body2" color="text.secondary">
                  {text.history.retention(outlook.limit, outlook.removes)}
                </Typography>
              )}
              {block && (
                <Alert severity="info" id={blockId}>
                  {text.history.restoreBlocked(block)}
                </Alert>
              )}
              <VersionTable
                krypton={krypton}
                secret={secret}
                items={items}
                live={live}
                block={block}
                blockId={blockId}
                onRestore={version =>
                  setRestore({
                    status: 'confirm',
                    version,
                    pinned: dto.resourceVersion,
                    running: false,
                  })
                }
              />
            </Box>
          );
        }}
      </Versions>
      {restore.status === 'confirm' && (
        <RestoreDialog
          version={restore.version}
          resourceVersion={restore.pinned}
          running={restore.running}
          secret={dto}
          block={block}
          onCancel={() => setRestore({ status: 'idle' })}
          onConfirm={() => confirm(restore.version, restore.pinned)}
        />
      )}
    </Box>
  );
}
