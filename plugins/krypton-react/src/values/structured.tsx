import { useMemo } from 'react';
import { formatJson, formatLabel, formatXml, formatYaml } from './formats';
import { useValuesHost } from './host';
import { RawText } from './RawText';

export type StructuredFormat = 'json' | 'yaml' | 'xml';

const FORMATTERS = { json: formatJson, yaml: formatYaml, xml: formatXml };

export interface StructuredPreviewProps {
  text: string;
  format: StructuredFormat;
}

/** JSON, YAML or XML pretty-printed; on a parse failure the raw text with a note, never an error. */
export const StructuredPreview = ({ text, format }: StructuredPreviewProps) => {
  const { t, Text } = useValuesHost();
  const result = useMemo(() => FORMATTERS[format](text), [format, text]);
  const label = formatLabel(format, t);
  if (!result.ok) {
    return (
      <>
        <Text kind="paragraph">
          {t('values.structured.invalid', { format: label })}
        </Text>
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
        <Text kind="paragraph">{t('values.structured.inexactNumbers')}</Text>
      )}
      <RawText
        text={result.text}
        label={t('values.structured.previewLabel', { format: label })}
      />
    </>
  );
};
