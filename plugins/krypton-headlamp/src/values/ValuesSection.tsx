import { SectionBox } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import { splitData } from '@krypton/plugin-krypton-common/engine';
import {
  MASK,
  NONE,
  RawText,
  ValueEntry,
  ValuePreview,
  cellText,
  englishValuesT as t,
  formatBytes,
  useValueRow,
  valueEntries,
} from '@krypton/plugin-krypton-react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, useMemo } from 'react';
import { text } from '../messages';
import { ShownSecret } from '../shownSecret';
import { HeadlampValues } from './HeadlampValues';

const COLUMNS = 5;

/** Read by assistive technology, not shown. */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function ValueRow({ entry }: { entry: ValueEntry }) {
  const keyId = useId();
  const panelId = useId();
  const { revealed, panel, copyStatus, toggleReveal, togglePanel, copy } =
    useValueRow(entry);
  const { value, kind } = entry;
  const isText = kind === 'text';

  let shown;
  if (value === undefined) {
    shown = t('values.row.notAvailable');
  } else if (revealed) {
    shown = (
      <Box
        component="code"
        title={kind === 'binary' ? t('values.row.base64') : undefined}
        sx={{
          display: 'block',
          maxWidth: 360,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        {cellText(value)}
      </Box>
    );
  } else {
    // Only placeholder text until revealed, so the value is not in the DOM at all.
    shown = (
      <>
        <span aria-hidden="true">{MASK}</span>
        <Box component="span" sx={visuallyHidden}>
          {t('values.row.hidden')}
        </Box>
      </>
    );
  }

  return (
    <>
      <TableRow>
        <TableCell component="th" scope="row">
          <Box
            component="span"
            id={keyId}
            sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
          >
            {entry.key}
          </Box>
        </TableCell>
        <TableCell>
          {t(`values.kinds.${kind}`)}
          {kind === 'binary' && revealed && (
            <Typography
              variant="caption"
              display="block"
              color="text.secondary"
            >
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
            <Box display="flex" flexWrap="wrap" alignItems="center" gap={0.5}>
              <Button
                size="small"
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
            </Box>
          )}
        </TableCell>
      </TableRow>
      {isText && value !== undefined && panel && (
        <TableRow>
          <TableCell colSpan={COLUMNS} id={panelId}>
            {panel === 'preview' ? (
              <ValuePreview value={value} />
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
}

/**
 * The values of the Secret on the view, masked until revealed, with Krypton's previews, Raw and
 * Copy. Read-only: a change goes through Krypton, which keeps the version it replaces.
 */
export function ValuesSection(props: { secret: ShownSecret }) {
  const { native } = props.secret;
  const entries = useMemo(() => {
    const { data, binaryData } = splitData(native.data);
    return valueEntries(data, binaryData);
  }, [native.data]);
  const title = text.values.title;
  return (
    <SectionBox title={title}>
      <HeadlampValues>
        <Typography variant="body2" paragraph>
          {text.values.intro}
        </Typography>
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
                <ValueRow key={entry.key} entry={entry} />
              ))}
            </TableBody>
          </Table>
        )}
      </HeadlampValues>
    </SectionBox>
  );
}
