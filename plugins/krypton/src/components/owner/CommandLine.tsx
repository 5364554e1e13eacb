import { useCopyText } from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import IconButton from '@material-ui/core/IconButton';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import FileCopyIcon from '@material-ui/icons/FileCopy';
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

/** One command in code style, with a button that copies it and says whether it did. */
export function CommandLine({ command }: { command: string }) {
  const t = useKryptonT();
  const classes = useStyles();
  const { status, copy } = useCopyText();
  return (
    <Box display="flex" alignItems="center" style={{ gap: 4 }} mt={0.5}>
      <code className={classes.code}>{command}</code>
      <IconButton
        size="small"
        aria-label={t('owner.command.copy')}
        onClick={() => copy(command)}
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
