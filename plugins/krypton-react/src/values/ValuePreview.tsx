import { PREVIEW_LIMIT_CODE_UNITS } from '@krypton/core';
import { Component, ReactNode, useId, useMemo, useState } from 'react';
import {
  PreviewFormat,
  PreviewMode,
  detectFormat,
  formatLabel,
} from './formats';
import { useValuesHost } from './host';
import { MarkdownPreview } from './markdown';
import { PemPreview } from './pem';
import { RawText } from './RawText';
import { StructuredPreview } from './structured';
import type { ValuesT } from './texts';

const MODES: readonly PreviewMode[] = [
  'auto',
  'markdown',
  'json',
  'yaml',
  'xml',
  'pem',
  'text',
];

function modeLabel(mode: PreviewMode, t: ValuesT): string {
  return mode === 'auto' ? t('values.preview.auto') : formatLabel(mode, t);
}

/** The boundary's fallback: a class component cannot call the translation hook itself. */
function PreviewFailed({ text }: { text: string }) {
  const { t, Text } = useValuesHost();
  return (
    <>
      <Text kind="paragraph">{t('values.preview.failed')}</Text>
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
  const { t } = useValuesHost();
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
  const { t, classes, Text, ModePicker } = useValuesHost();
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
        <Text kind="body" id={labelId}>
          {t('values.preview.previewAs')}
        </Text>
        <ModePicker
          modes={MODES}
          value={mode}
          onChange={setMode}
          labelOf={option => modeLabel(option, t)}
          labelledBy={labelId}
        />
        {detected && (
          <Text kind="secondary">
            {t('values.preview.detected', {
              format: formatLabel(detected, t),
            })}
          </Text>
        )}
      </div>
      {value === '' ? (
        <Text kind="body">{t('values.preview.empty')}</Text>
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
  const { t, Text } = useValuesHost();
  if (props.value.length > PREVIEW_LIMIT_CODE_UNITS) {
    return (
      <div>
        <Text kind="paragraph">
          {t('values.preview.tooLarge', { limit: PREVIEW_LIMIT_CODE_UNITS })}
        </Text>
        <RawText text={props.value} label={t('values.preview.rawText')} />
      </div>
    );
  }
  return <BoundedPreview {...props} />;
};
