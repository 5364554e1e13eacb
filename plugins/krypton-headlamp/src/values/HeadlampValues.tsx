import { StatusLabel } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import {
  ActionButtonProps,
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
  TableParts,
  ValuesClasses,
  ValuesHost,
  ValuesHostProvider,
  englishValuesT,
  valuesStyles,
} from '@krypton/plugin-krypton-react';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { ReactNode } from 'react';

// Fixed class names under Krypton's prefix: a plugin has no style system of its own inside
// Headlamp, and Emotion's global styles are what Headlamp's MUI offers without one.
const classes: ValuesClasses = {
  raw: 'krypton-values-raw',
  rawBlock: 'krypton-values-raw-block',
  markdown: 'krypton-values-markdown',
  markdownGroup: 'krypton-values-markdown-group',
  link: 'krypton-values-link',
  image: 'krypton-values-image',
  toolbar: 'krypton-values-toolbar',
  pemList: 'krypton-values-pem-list',
  pemBlock: 'krypton-values-pem-block',
  pemFields: 'krypton-values-pem-fields',
  valueKey: 'krypton-values-key',
  cellValue: 'krypton-values-cell-value',
  actions: 'krypton-values-actions',
  visuallyHidden: 'krypton-values-visually-hidden',
  panel: 'krypton-values-panel',
};
const PARTS = Object.keys(classes) as (keyof ValuesClasses)[];

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
        <Typography variant="body2" color="text.secondary" id={id}>
          {children}
        </Typography>
      );
    case 'caption':
      return (
        <Typography
          variant="caption"
          display="block"
          color="text.secondary"
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
    onChange={(_event, next: ModePickerProps['value'] | null) =>
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

const STATUS = {
  expired: 'error',
  expiring: 'warning',
  'not-yet-valid': 'warning',
  valid: 'success',
} as const;

const CertificateStatus = ({ status, children }: CertificateStatusProps) => (
  <StatusLabel status={STATUS[status]}>{children}</StatusLabel>
);

// Text buttons without icons: Headlamp shares no icon set with plugins but Iconify, which loads
// its icons at run time.
const ActionButton = (props: ActionButtonProps) => (
  <Button
    size="small"
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
      <TableCell component="th" scope="row" {...rest}>
        {children}
      </TableCell>
    ) : (
      <TableCell {...rest}>{children}</TableCell>
    ),
};

const host: ValuesHost = {
  t: englishValuesT,
  classes,
  Text,
  ModePicker,
  CertificateStatus,
  ActionButton,
  table,
};

/**
 * Krypton's value views as Headlamp draws them: its MUI v5 theme, its status labels, and the
 * English words of the value views (Headlamp gives a plugin no translations of its own).
 */
export function HeadlampValues(props: { children: ReactNode }) {
  return (
    <ValuesHostProvider host={host}>
      <GlobalStyles
        styles={theme => {
          const rules = valuesStyles(theme);
          return Object.fromEntries(
            PARTS.map(part => [`.${classes[part]}`, rules[part]]),
          );
        }}
      />
      {props.children}
    </ValuesHostProvider>
  );
}
