import {
  KeyDiffEntry,
  LiveComparison,
  keyDiff,
  versionSide,
} from '@krypton/core';
import { Loader } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { HeadlampKrypton } from '../engines';
import { text } from '../messages';
import { ShownSecret } from '../shownSecret';
import { useLoad } from '../useLoad';
import { MaskedValue } from './MaskedValue';

function SideCell(props: {
  entry: KeyDiffEntry;
  side: 'live' | 'version';
  label: string;
}) {
  const { entry, side } = props;
  // The diff runs from live to the version: what restoring it would change.
  const onSide =
    side === 'live' ? entry.change !== 'added' : entry.change !== 'removed';
  if (!onSide) return <>{text.diff.none}</>;
  let note: string | undefined;
  if (entry.kind === 'binary') note = text.diff.binary;
  else if (entry.change === 'unchanged') note = text.diff.same;
  const value = side === 'live' ? entry.before : entry.after;
  if (!note && value === undefined) note = text.diff.unknown;
  if (note || value === undefined)
    return (
      <Typography variant="body2" color="text.secondary">
        {note}
      </Typography>
    );
  return <MaskedValue value={value} keyName={entry.key} side={props.label} />;
}

/**
 * What restoring one version would change, key by key, against the live Secret on the view.
 * Reading the version's values is a value read, so it happens only when the user opens it.
 * Values stay masked one by one; binary values are never shown.
 */
export function VersionChanges(props: {
  krypton: HeadlampKrypton;
  secret: ShownSecret;
  version: number;
  live: LiveComparison;
}) {
  const { krypton, secret, version, live } = props;
  const { state: load, reload } = useLoad(
    () =>
      krypton.versioned.version(
        secret.namespace,
        secret.name,
        version,
        krypton.gate,
      ),
    [krypton, secret.namespace, secret.name, version],
  );

  const diff = useMemo(
    () =>
      load.status === 'loaded' && live.side
        ? keyDiff(live.side, versionSide(load.value))
        : undefined,
    [load, live.side],
  );

  if (load.status === 'loading')
    return <Loader title={text.diff.loading(version)} />;
  if (load.status === 'failed')
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={reload}>
            {text.history.retry}
          </Button>
        }
      >
        {text.diff.failed(version, load.failure.message)}
      </Alert>
    );
  if (!diff) return null;

  const versionLabel = text.diff.version(version);
  const { counts } = diff;
  return (
    <Box display="flex" flexDirection="column" gap={1} py={1}>
      {!diff.valuesCompared && (
        <Typography variant="body2">{text.diff.keysOnly}</Typography>
      )}
      <Typography variant="body2">
        {diff.valuesCompared
          ? text.diff.counts(
              counts.added,
              counts.removed,
              counts.changed,
              counts.unchanged,
            )
          : text.diff.countsKeys(counts.added, counts.removed, counts.present)}
      </Typography>
      {diff.entries.length === 0 ? (
        <Typography variant="body2">{text.diff.noKeys}</Typography>
      ) : (
        <Table size="small" aria-label={text.diff.title(version)}>
          <TableHead>
            <TableRow>
              <TableCell>{text.diff.columns.key}</TableCell>
              <TableCell>{text.diff.columns.change}</TableCell>
              <TableCell>{text.diff.live}</TableCell>
              <TableCell>{versionLabel}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {diff.entries.map(entry => (
              <TableRow key={entry.key}>
                <TableCell component="th" scope="row">
                  <Box
                    component="span"
                    sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                  >
                    {entry.key}
                  </Box>
                </TableCell>
                <TableCell>{text.diff.changes[entry.change]}</TableCell>
                <TableCell>
                  <SideCell entry={entry} side="live" label={text.diff.live} />
                </TableCell>
                <TableCell>
                  <SideCell entry={entry} side="version" label={versionLabel} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
