import { copyToClipboard } from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import IconButton from '@material-ui/core/IconButton';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import FileCopyIcon from '@material-ui/icons/FileCopy';
import { useEffect, useState } from 'react';
import { useKryptonT } from '../../translation';

const useStyles = makeStyles(theme => ({
  // Wraps anywhere: a long command must not widen a dialog or the page at 800 px.
  code: {
    fontFamily: 'monospace',
    fontSize: '0.875em',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    padding: theme.spacing(0.5, 1),
    borderRadius: theme.shape.borderRadius,
    backgroundColor: theme.palette.action.hover,
    minWidth: 0,
  },
}));

/** How long "Copied" stays next to the button, in ms. */
const STATUS_MS = 4000;

/** One command in code style, with a button that copies it and says whether it did. */
export function CommandLine({ command }: { command: string }) {
  const t = useKryptonT();
  const classes = useStyles();
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (status === 'idle') return undefined;
    const timer = setTimeout(() => setStatus('idle'), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <Box display="flex" alignItems="center" style={{ gap: 4 }} mt={0.5}>
      <code className={classes.code}>{command}</code>
      <IconButton
        size="small"
        aria-label={t('owner.command.copy')}
        onClick={() =>
          copyToClipboard(command).then(ok =>
            setStatus(ok ? 'copied' : 'failed'),
          )
        }
      >
        <FileCopyIcon fontSize="small" />
      </IconButton>
      <Typography variant="caption" role="status">
        {status === 'copied' && t('owner.command.copied')}
        {status === 'failed' && t('owner.command.copyFailed')}
      </Typography>
    </Box>
  );
}
