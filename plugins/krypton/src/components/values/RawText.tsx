import { makeStyles } from '@material-ui/core/styles';

const useStyles = makeStyles(theme => ({
  pre: {
    margin: 0,
    padding: theme.spacing(1),
    maxHeight: 480,
    overflow: 'auto',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    // The block takes the width it is given and asks for none: in the values table, whose column
    // widths come from their contents, measuring 131,072 characters for that cost more than
    // laying them out (127 against 52 ms for the bench's runbook in Chromium).
    contain: 'inline-size',
    fontFamily: 'monospace',
    fontSize: theme.typography.body2.fontSize,
    backgroundColor: theme.palette.background.default,
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: theme.shape.borderRadius,
  },
}));

export interface RawTextProps {
  text: string;
  /** The accessible name of the block, e.g. "Raw value of password". */
  label: string;
}

/**
 * Text exactly as given. React escapes it, so markup inside stays inert. Focusable, because a long
 * value scrolls and keyboard users must be able to scroll it.
 */
export const RawText = ({ text, label }: RawTextProps) => {
  const classes = useStyles();
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <pre className={classes.pre} role="group" aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
};
