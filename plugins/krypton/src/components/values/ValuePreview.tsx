import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import ToggleButton from '@material-ui/lab/ToggleButton';
import ToggleButtonGroup from '@material-ui/lab/ToggleButtonGroup';
import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/plugin-krypton-common';
import { Component, ReactNode, useId, useMemo, useState } from 'react';
import {
  FORMAT_LABELS,
  PreviewFormat,
  PreviewMode,
  detectFormat,
} from './formats';
import { MarkdownPreview } from './markdown';
import { PemPreview } from './pem';
import { RawText } from './RawText';
import { StructuredPreview } from './structured';

const MODES: readonly PreviewMode[] = [
  'auto',
  'markdown',
  'json',
  'yaml',
  'xml',
  'pem',
  'text',
];

function modeLabel(mode: PreviewMode): string {
  return mode === 'auto' ? 'Auto' : FORMAT_LABELS[mode];
}

/**
 * Renderers recurse over the parsed document, so a pathological value (say, thousands of nested
 * blockquotes) could overflow the stack. The viewer then shows the raw text instead of taking the
 * page down with it.
 */
class PreviewBoundary extends Component<
  { text: string; children: ReactNode },
  { failed: boolean }
> {
  static getDerivedStateFromError() {
    return { failed: true };
  }

  state = { failed: false };

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        <Typography variant="body2" paragraph>
          This value could not be previewed; showing the raw text.
        </Typography>
        <RawText text={this.props.text} label="Raw text" />
      </>
    );
  }
}

const PreviewBody = ({
  text,
  format,
  now,
}: {
  text: string;
  format: PreviewFormat;
  now?: Date;
}) => {
  switch (format) {
    case 'markdown':
      return <MarkdownPreview text={text} />;
    case 'json':
    case 'yaml':
    case 'xml':
      return <StructuredPreview text={text} format={format} />;
    case 'pem':
      return <PemPreview text={text} now={now} />;
    default:
      return <RawText text={text} label="Text preview" />;
  }
};

const useStyles = makeStyles(theme => ({
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: theme.spacing(1),
    marginBottom: theme.spacing(1),
  },
}));

export interface ValuePreviewProps {
  /** The text value, in full. */
  value: string;
  /** The format to start with; Auto detects it from the value. */
  initialMode?: PreviewMode;
  /** The time certificates are checked against; injectable for tests. */
  now?: Date;
}

const BoundedPreview = ({
  value,
  initialMode = 'auto',
  now,
}: ValuePreviewProps) => {
  const classes = useStyles();
  const labelId = useId();
  const [mode, setMode] = useState<PreviewMode>(initialMode);
  const detected = useMemo(
    () => (mode === 'auto' ? detectFormat(value) : undefined),
    [mode, value],
  );
  const format = detected ?? (mode === 'auto' ? 'text' : mode);
  return (
    <div>
      <div className={classes.toolbar}>
        <Typography variant="body2" id={labelId}>
          Preview as:
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          aria-labelledby={labelId}
          // Clicking the selected button again would deselect it (null): keep the current mode.
          onChange={(_event, next: PreviewMode | null) => next && setMode(next)}
        >
          {MODES.map(option => (
            <ToggleButton
              key={option}
              value={option}
              aria-label={modeLabel(option)}
            >
              {modeLabel(option)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {detected && (
          <Typography variant="body2" color="textSecondary">
            Detected: {FORMAT_LABELS[detected]}
          </Typography>
        )}
      </div>
      {value === '' ? (
        <Typography variant="body2">This value is empty.</Typography>
      ) : (
        // Keyed by format, so that choosing another format retries after a failure.
        <PreviewBoundary key={format} text={value}>
          <PreviewBody text={value} format={format} now={now} />
        </PreviewBoundary>
      )}
    </div>
  );
};

/**
 * A text value previewed as Markdown, JSON, YAML, XML, PEM or plain text. Above the shared limit
 * the value is shown as escaped raw text before any detection or parsing, so size cannot make the
 * page slow; the value itself is never truncated.
 */
export const ValuePreview = (props: ValuePreviewProps) => {
  if (props.value.length > PREVIEW_LIMIT_CODE_UNITS) {
    return (
      <div>
        <Typography variant="body2" paragraph>
          This value is larger than{' '}
          {PREVIEW_LIMIT_CODE_UNITS.toLocaleString('en-US')} characters, so it
          is shown as raw text.
        </Typography>
        <RawText text={props.value} label="Raw text" />
      </div>
    );
  }
  return <BoundedPreview {...props} />;
};
