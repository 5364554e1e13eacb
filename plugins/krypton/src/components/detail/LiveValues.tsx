import { SecretSummary } from '@krypton/core';
import { useMemo } from 'react';
import { useKryptonT } from '../../translation';
import { SecretValues } from '../values';
import { SecretValuesState } from './useSecretValues';

const NONE: Record<string, string> = {};

/**
 * The live Secret's values as the user asked for them: every row from the summary's facts, each
 * value fetched by its own Reveal, Expand value, Raw or Copy. Values count only when they belong
 * to the revision the summary shows; values of another one are fetched again when asked for.
 */
export const LiveValues = ({
  summary,
  values,
}: {
  summary: SecretSummary;
  values: SecretValuesState;
}) => {
  const t = useKryptonT();
  const current = (shown?: { uid: string; resourceVersion: string }) =>
    shown?.uid === summary.uid &&
    shown.resourceVersion === summary.resourceVersion;
  let source: {
    data: Record<string, string>;
    binaryData: Record<string, string>;
  } = {
    data: NONE,
    binaryData: NONE,
  };
  if (current(values.secret)) source = values.secret!;
  else if (current(values.fetched)) source = values.fetched!;
  const facts = useMemo(
    () => ({
      keys: summary.keys,
      binaryKeys: summary.binaryKeys,
      sizes: summary.keySizes,
    }),
    [summary.keys, summary.binaryKeys, summary.keySizes],
  );
  return (
    <SecretValues
      data={source.data}
      binaryData={source.binaryData}
      facts={facts}
      load={values.loadKey}
      title={t('detail.values.valuesTitle')}
    />
  );
};
