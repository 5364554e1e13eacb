import {
  StatusError,
  StatusOK,
  StatusWarning,
} from '@backstage/core-components';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import CodeIcon from '@material-ui/icons/Code';
import FileCopyIcon from '@material-ui/icons/FileCopy';
import UnfoldMoreIcon from '@material-ui/icons/UnfoldMore';
import VisibilityIcon from '@material-ui/icons/Visibility';
import VisibilityOffIcon from '@material-ui/icons/VisibilityOff';
import ToggleButton from '@material-ui/lab/ToggleButton';
import ToggleButtonGroup from '@material-ui/lab/ToggleButtonGroup';
import {
  ActionButtonProps,
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
  PreviewMode,
  TableParts,
  ValuesHost,
  ValuesHostProvider,
  valuesStyles,
} from '@krypton/plugin-krypton-react';
import { ReactNode, useMemo } from 'react';
import { useKryptonT } from '../../translation';

const useStyles = makeStyles(theme => {
  const shared = valuesStyles({
    ...theme,
    spacing: (...units: number[]) =>
      units.map(unit => `${theme.spacing(unit)}px`).join(' '),
  });
  // An automatic table gives a column at least its widest line that cannot wrap. Breaking keys
  // anywhere let a squeezed table cut short keys mid-word ("pass / word"); with room for ten
  // characters, only a longer key wraps, at its own break points first.
  return {
    ...shared,
    valueKey: { ...shared.valueKey, display: 'inline-block', minWidth: '10ch' },
    // A revealed value is one line that asks for its whole width, up to 360 px: at an 800 px
    // window that pushed the table out of its card. A share of the table's width keeps it in.
    cellValue: { ...shared.cellValue, maxWidth: 'min(360px, 25cqi)' },
  };
});

/**
 * The values table's width, which a revealed value takes its share of, and which decides how the
 * row's buttons are drawn. Backstage's cells break words anywhere to fit a squeezed column: at an
 * 800 px window the buttons took the room and "Kind", "Size" and "29 bytes" broke mid-word. The
 * headers, kinds, sizes and masks keep their words whole (a size on one line), and a table too
 * narrow for the buttons' labels shows the buttons as icons, with the label as their tooltip and
 * accessible name.
 */
const useTableStyles = makeStyles(theme => ({
  container: {
    containerType: 'inline-size',
    '& thead th, & tbody td:nth-child(2), & tbody td:nth-child(3), & tbody td:nth-child(4)':
      { wordBreak: 'normal' },
    '& tbody td:nth-child(3)': { whiteSpace: 'nowrap' },
    '@container (max-width: 760px)': {
      '& $action': { minWidth: 0, padding: theme.spacing(0.5) },
      '& $actionIcon': { margin: 0 },
      '& $actionLabel': { display: 'none' },
    },
  },
  // MUI's small cells keep 24 px to their right; at 800 px those 120 px are the room that the
  // five columns lack.
  cell: { paddingRight: theme.spacing(1) },
  action: {},
  actionIcon: {},
  actionLabel: {},
}));

const Text = ({ kind, id, children }: HostTextProps) => {
  switch (kind) {
    case 'title':
      return (
        <Typography variant="subtitle2" component="p" id={id}>
          {children}
        </Typography>
      );
    case 'secondary':
      return (
        <Typography variant="body2" color="textSecondary" id={id}>
          {children}
        </Typography>
      );
    case 'caption':
      return (
        <Typography
          variant="caption"
          display="block"
          color="textSecondary"
          id={id}
        >
          {children}
        </Typography>
      );
    case 'status':
      return (
        <Typography variant="caption" role="status" id={id}>
          {children}
        </Typography>
      );
    default:
      return (
        <Typography variant="body2" paragraph={kind === 'paragraph'} id={id}>
          {children}
        </Typography>
      );
  }
};

const ModePicker = (props: ModePickerProps) => (
  <ToggleButtonGroup
    size="small"
    exclusive
    value={props.value}
    aria-labelledby={props.labelledBy}
    // Clicking the selected button again would deselect it (null): keep the current mode.
    onChange={(_event, next: PreviewMode | null) =>
      next && props.onChange(next)
    }
  >
    {props.modes.map(option => (
      <ToggleButton
        key={option}
        value={option}
        aria-label={props.labelOf(option)}
      >
        {props.labelOf(option)}
      </ToggleButton>
    ))}
  </ToggleButtonGroup>
);

const CertificateStatus = ({ status, children }: CertificateStatusProps) => {
  switch (status) {
    case 'expired':
      return <StatusError>{children}</StatusError>;
    case 'expiring':
    case 'not-yet-valid':
      return <StatusWarning>{children}</StatusWarning>;
    default:
      return <StatusOK>{children}</StatusOK>;
  }
};

const ICONS = {
  reveal: <VisibilityIcon />,
  hide: <VisibilityOffIcon />,
  expand: <UnfoldMoreIcon />,
  raw: <CodeIcon />,
  copy: <FileCopyIcon />,
};

// A label that wraps inside its button ("EXPAND / VALUE") makes the row tall and reads as two
// buttons; the row's buttons wrap as whole buttons instead.
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const ActionButton = (props: ActionButtonProps) => {
  const classes = useTableStyles();
  return (
    // The label on hover and focus, for a narrow table's icons.
    <Tooltip title={props.label}>
      <Button
        size="small"
        style={NO_WRAP}
        classes={{ root: classes.action, startIcon: classes.actionIcon }}
        startIcon={ICONS[props.action]}
        aria-label={props.label}
        aria-describedby={props.describedBy}
        aria-expanded={props.expanded}
        aria-controls={props.controls}
        aria-pressed={props.pressed}
        onClick={props.onClick}
      >
        <span className={classes.actionLabel}>{props.label}</span>
      </Button>
    </Tooltip>
  );
};

const HostTable: TableParts['Table'] = ({ label, children }) => {
  const classes = useTableStyles();
  return (
    <div className={classes.container}>
      <Table size="small" aria-label={label}>
        {children}
      </Table>
    </div>
  );
};

const HostCell: TableParts['Cell'] = ({ rowHeader, children, ...rest }) => {
  const classes = useTableStyles();
  return rowHeader ? (
    // MUI marks a body cell rendered as th as a plain cell; it is this row's header.
    <TableCell
      component="th"
      scope="row"
      role="rowheader"
      className={classes.cell}
      {...rest}
    >
      {children}
    </TableCell>
  ) : (
    <TableCell className={classes.cell} {...rest}>
      {children}
    </TableCell>
  );
};

const table: TableParts = {
  Table: HostTable,
  Head: TableHead,
  Body: TableBody,
  Row: TableRow,
  Cell: HostCell,
};

/**
 * Krypton's value views as Backstage draws them: Material UI v4 with its icons, core-components' statuses, and
 * the words of Krypton's translation ref.
 */
export const BackstageValues = ({ children }: { children: ReactNode }) => {
  const t = useKryptonT();
  const classes = useStyles();
  const host = useMemo<ValuesHost>(
    () => ({
      t,
      classes,
      Text,
      ModePicker,
      CertificateStatus,
      ActionButton,
      table,
    }),
    [t, classes],
  );
  return <ValuesHostProvider host={host}>{children}</ValuesHostProvider>;
};
