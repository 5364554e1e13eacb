import { InfoCard } from '@backstage/core-components';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import CodeIcon from '@material-ui/icons/Code';
import FileCopyIcon from '@material-ui/icons/FileCopy';
import UnfoldMoreIcon from '@material-ui/icons/UnfoldMore';
import VisibilityIcon from '@material-ui/icons/Visibility';
import VisibilityOffIcon from '@material-ui/icons/VisibilityOff';
import {
  MASK,
  NONE,
  RawText,
  ValueEntry,
  ValuePreview,
  cellText,
  formatBytes,
  useValueRow,
  valueEntries,
} from '@krypton/plugin-krypton-react';
import { useId, useMemo } from 'react';
import { useKryptonT } from '../../translation';
import { BackstageValues } from './host';

const COLUMNS = 5;

const useStyles = makeStyles(theme => ({
  key: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
  value: {
    display: 'block',
    maxWidth: 360,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontFamily: 'monospace',
  },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: theme.spacing(0.5),
  },
  visuallyHidden: {
    position: 'absolute',
    width: 1,
    height: 1,
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
  panel: { backgroundColor: theme.palette.background.default },
}));

const ValueRow = ({ entry, now }: { entry: ValueEntry; now?: Date }) => {
  const classes = useStyles();
  const t = useKryptonT();
  const keyId = useId();
  const panelId = useId();
  const { revealed, panel, copyStatus, toggleReveal, togglePanel, copy } =
    useValueRow(entry);
  const { value, kind } = entry;
  const isText = kind === 'text';

  let shown;
  if (value === undefined) {
    shown = (
      <Typography variant="body2">{t('values.row.notAvailable')}</Typography>
    );
  } else if (revealed) {
    shown = (
      <code
        className={classes.value}
        title={kind === 'binary' ? t('values.row.base64') : undefined}
      >
        {cellText(value)}
      </code>
    );
  } else {
    // Only placeholder text until revealed, so the value is not in the DOM at all.
    shown = (
      <>
        <span aria-hidden="true">{MASK}</span>
        <span className={classes.visuallyHidden}>{t('values.row.hidden')}</span>
      </>
    );
  }

  return (
    <>
      <TableRow>
        {/* MUI marks a body cell rendered as th as a plain cell; it is this row's header. */}
        <TableCell component="th" scope="row" role="rowheader">
          <span id={keyId} className={classes.key}>
            {entry.key}
          </span>
        </TableCell>
        <TableCell>
          {t(`values.kinds.${kind}`)}
          {kind === 'binary' && revealed && (
            <Typography variant="caption" display="block" color="textSecondary">
              {t('values.row.shownAsBase64')}
            </Typography>
          )}
        </TableCell>
        <TableCell>
          {kind === 'missing' ? NONE : formatBytes(entry.bytes, t)}
        </TableCell>
        <TableCell>{shown}</TableCell>
        <TableCell>
          {value !== undefined && (
            <div className={classes.actions}>
              <Button
                size="small"
                startIcon={
                  revealed ? <VisibilityOffIcon /> : <VisibilityIcon />
                }
                aria-label={
                  revealed ? t('values.row.hide') : t('values.row.reveal')
                }
                aria-describedby={keyId}
                onClick={toggleReveal}
              >
                {revealed ? t('values.row.hide') : t('values.row.reveal')}
              </Button>
              {/* Binary values are never previewed as text: only base64 via Reveal and Copy. */}
              {isText && (
                <>
                  <Button
                    size="small"
                    startIcon={<UnfoldMoreIcon />}
                    aria-label={t('values.row.expand')}
                    aria-describedby={keyId}
                    aria-expanded={panel === 'preview'}
                    aria-controls={panel === 'preview' ? panelId : undefined}
                    onClick={() => togglePanel('preview')}
                  >
                    {t('values.row.expand')}
                  </Button>
                  <Button
                    size="small"
                    startIcon={<CodeIcon />}
                    aria-label={t('values.row.raw')}
                    aria-describedby={keyId}
                    aria-pressed={panel === 'raw'}
                    onClick={() => togglePanel('raw')}
                  >
                    {t('values.row.raw')}
                  </Button>
                </>
              )}
              <Button
                size="small"
                startIcon={<FileCopyIcon />}
                aria-label={t('values.row.copy')}
                aria-describedby={keyId}
                onClick={copy}
              >
                {t('values.row.copy')}
              </Button>
              <Typography variant="caption" role="status">
                {copyStatus === 'copied' && t('values.row.copied')}
                {copyStatus === 'failed' && t('values.row.copyFailed')}
              </Typography>
            </div>
          )}
        </TableCell>
      </TableRow>
      {isText && value !== undefined && panel && (
        <TableRow className={classes.panel}>
          <TableCell colSpan={COLUMNS} id={panelId}>
            {panel === 'preview' ? (
              <ValuePreview value={value} now={now} />
            ) : (
              <RawText
                text={value}
                label={t('values.row.rawLabel', { key: entry.key })}
              />
            )}
          </TableCell>
        </TableRow>
      )}
    </>
  );
};

export interface SecretValuesProps {
  /** Lossless text values (SecretDto.data or VersionDto.data). */
  data: Record<string, string>;
  /** Every other value as its original base64 (SecretDto.binaryData or VersionDto.binaryData). */
  binaryData: Record<string, string>;
  /** All keys, text and binary; a key in neither map is listed as not loaded. */
  keys?: readonly string[];
  /** The card title. */
  title?: string;
  /** The time certificates are checked against; injectable for tests. */
  now?: Date;
}

/**
 * The values of a live Secret or of a history version: one row per key, masked until revealed.
 * Read-only by design, which is what binary values require: they are viewed and copied as base64.
 */
export const SecretValues = ({
  data,
  binaryData,
  keys,
  title: givenTitle,
  now,
}: SecretValuesProps) => {
  const t = useKryptonT();
  const title = givenTitle ?? t('values.table.title');
  const entries = useMemo(
    () => valueEntries(data, binaryData, keys),
    [data, binaryData, keys],
  );
  return (
    <BackstageValues>
      <InfoCard title={title}>
        {entries.length === 0 ? (
          <Typography variant="body2">{t('values.table.empty')}</Typography>
        ) : (
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{t('values.table.key')}</TableCell>
                <TableCell>{t('values.table.kind')}</TableCell>
                <TableCell>{t('values.table.size')}</TableCell>
                <TableCell>{t('values.table.value')}</TableCell>
                <TableCell>{t('values.table.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map(entry => (
                <ValueRow key={entry.key} entry={entry} now={now} />
              ))}
            </TableBody>
          </Table>
        )}
      </InfoCard>
    </BackstageValues>
  );
};
