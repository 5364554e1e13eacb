import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import { useKryptonT } from '../../translation';
import { formatJson, formatLabel, formatXml, formatYaml } from './formats';
import { RawText } from './RawText';

export type StructuredFormat = 'json' | 'yaml' | 'xml';

const FORMATTERS = { json: formatJson, yaml: formatYaml, xml: formatXml };

export interface StructuredPreviewProps {
  text: string;
  format: StructuredFormat;
}

/** JSON, YAML or XML pretty-printed; on a parse failure the raw text with a note, never an error. */
export const StructuredPreview = ({ text, format }: StructuredPreviewProps) => {
  const t = useKryptonT();
  const result = useMemo(() => FORMATTERS[format](text), [format, text]);
  const label = formatLabel(format, t);
  if (!result.ok) {
    return (
      <>
        <Typography variant="body2" paragraph>
          {t('values.structured.invalid', { format: label })}
        </Typography>
        <RawText
          text={text}
          label={t('values.structured.rawLabel', { format: label })}
        />
      </>
    );
  }
  return (
    <>
      {result.inexactNumbers && (
        <Typography variant="body2" paragraph>
          {t('values.structured.inexactNumbers')}
        </Typography>
      )}
      <RawText
        text={result.text}
        label={t('values.structured.previewLabel', { format: label })}
      />
    </>
  );
};
