import { StatusLabel } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import {
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
  ValuesClasses,
  ValuesHost,
  ValuesHostProvider,
  englishValuesT,
  valuesStyles,
} from '@krypton/plugin-krypton-react';
import GlobalStyles from '@mui/material/GlobalStyles';
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

const host: ValuesHost = {
  t: englishValuesT,
  classes,
  Text,
  ModePicker,
  CertificateStatus,
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
