import {
  StatusError,
  StatusOK,
  StatusWarning,
} from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import ToggleButton from '@material-ui/lab/ToggleButton';
import ToggleButtonGroup from '@material-ui/lab/ToggleButtonGroup';
import {
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
  PreviewMode,
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

/**
 * Krypton's value views as Backstage draws them: Material UI v4, core-components' statuses, and
 * the words of Krypton's translation ref.
 */
export const BackstageValues = ({ children }: { children: ReactNode }) => {
  const t = useKryptonT();
  const classes = useStyles();
  const host = useMemo<ValuesHost>(
    () => ({ t, classes, Text, ModePicker, CertificateStatus }),
    [t, classes],
  );
  return <ValuesHostProvider host={host}>{children}</ValuesHostProvider>;
};
