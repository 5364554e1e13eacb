import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import { FORMAT_LABELS, formatJson, formatXml, formatYaml } from './formats';
import { RawText } from './RawText';

export type StructuredFormat = 'json' | 'yaml' | 'xml';

const FORMATTERS = { json: formatJson, yaml: formatYaml, xml: formatXml };

export interface StructuredPreviewProps {
  text: string;
  format: StructuredFormat;
}

/** JSON, YAML or XML pretty-printed; on a parse failure the raw text with a note, never an error. */
export const StructuredPreview = ({ text, format }: StructuredPreviewProps) => {
  const result = useMemo(() => FORMATTERS[format](text), [format, text]);
  const label = FORMAT_LABELS[format];
  if (!result.ok) {
    return (
      <>
        <Typography variant="body2" paragraph>
          Not valid {label}; showing the raw text.
        </Typography>
        <RawText text={text} label={`Raw ${label} text`} />
      </>
    );
  }
  return (
    <>
      {result.inexactNumbers && (
        <Typography variant="body2" paragraph>
          Some numbers cannot be shown exactly in this preview and appear
          rounded; Raw shows the exact text.
        </Typography>
      )}
      <RawText text={result.text} label={`${label} preview`} />
    </>
  );
};
