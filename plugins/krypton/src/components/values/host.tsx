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

const useStyles = makeStyles(theme =>
  valuesStyles({
    ...theme,
    spacing: (...units: number[]) =>
      units.map(unit => `${theme.spacing(unit)}px`).join(' '),
  }),
);

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

const ActionButton = (props: ActionButtonProps) => (
  <Button
    size="small"
    startIcon={ICONS[props.action]}
    aria-label={props.label}
    aria-describedby={props.describedBy}
    aria-expanded={props.expanded}
    aria-controls={props.controls}
    aria-pressed={props.pressed}
    onClick={props.onClick}
  >
    {props.label}
  </Button>
);

const table: TableParts = {
  Table: ({ label, children }) => (
    <Table size="small" aria-label={label}>
      {children}
    </Table>
  ),
  Head: TableHead,
  Body: TableBody,
  Row: TableRow,
  Cell: ({ rowHeader, children, ...rest }) =>
    rowHeader ? (
      // MUI marks a body cell rendered as th as a plain cell; it is this row's header.
      <TableCell component="th" scope="row" role="rowheader" {...rest}>
        {children}
      </TableCell>
    ) : (
      <TableCell {...rest}>{children}</TableCell>
    ),
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
