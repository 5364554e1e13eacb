import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import ToggleButton from '@material-ui/lab/ToggleButton';
import ToggleButtonGroup from '@material-ui/lab/ToggleButtonGroup';
import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/plugin-krypton-common';
import { Component, ReactNode, useId, useMemo, useState } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import {
  PreviewFormat,
  PreviewMode,
  detectFormat,
  formatLabel,
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

function modeLabel(mode: PreviewMode, t: KryptonT): string {
  return mode === 'auto' ? t('values.preview.auto') : formatLabel(mode, t);
}

/** The boundary's fallback: a class component cannot call the translation hook itself. */
function PreviewFailed({ text }: { text: string }) {
  const t = useKryptonT();
  return (
    <>
      <Typography variant="body2" paragraph>
        {t('values.preview.failed')}
      </Typography>
      <RawText text={text} label={t('values.preview.rawText')} />
    </>
  );
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
    return <PreviewFailed text={this.props.text} />;
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
  const t = useKryptonT();
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
      return <RawText text={text} label={t('values.preview.textPreview')} />;
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
  const t = useKryptonT();
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
          {t('values.preview.previewAs')}
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
              aria-label={modeLabel(option, t)}
            >
              {modeLabel(option, t)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {detected && (
          <Typography variant="body2" color="textSecondary">
            {t('values.preview.detected', {
              format: formatLabel(detected, t),
            })}
          </Typography>
        )}
      </div>
      {value === '' ? (
        <Typography variant="body2">{t('values.preview.empty')}</Typography>
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
  const t = useKryptonT();
  if (props.value.length > PREVIEW_LIMIT_CODE_UNITS) {
    return (
      <div>
        <Typography variant="body2" paragraph>
          {t('values.preview.tooLarge', { limit: PREVIEW_LIMIT_CODE_UNITS })}
        </Typography>
        <RawText text={props.value} label={t('values.preview.rawText')} />
      </div>
    );
  }
  return <BoundedPreview {...props} />;
};
