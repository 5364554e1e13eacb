import { InfoCard } from '@backstage/core-components';
import {
  KeyFacts,
  ValuesTable,
  keyEntries,
  valueEntries,
} from '@krypton/plugin-krypton-react';
import { useMemo } from 'react';
import { useKryptonT } from '../../translation';
import { BackstageValues } from './host';

export interface SecretValuesProps {
  /** Lossless text values (SecretDto.data or VersionDto.data). */
  data: Record<string, string>;
  /** Every other value as its original base64 (SecretDto.binaryData or VersionDto.binaryData). */
  binaryData: Record<string, string>;
  /** All keys, text and binary; a key in neither map is listed as not loaded. */
  keys?: readonly string[];
  /**
   * With `load`: the keys, binary keys and sizes from the Secret's metadata, and `data` and
   * `binaryData` hold only the values fetched so far; every other value is fetched by `load` when
   * the user asks for it.
   */
  facts?: KeyFacts;
  load?: (key: string) => Promise<string | undefined>;
  /** The card title. */
  title?: string;
  /** The time certificates are checked against; injectable for tests. */
  now?: Date;
}

/**
 * The values of a live Secret or of a history version in a card: the shared values table, one row
 * per key, masked until revealed.
 */
export const SecretValues = ({
  data,
  binaryData,
  keys,
  facts,
  load,
  title: givenTitle,
  now,
}: SecretValuesProps) => {
  const t = useKryptonT();
  const title = givenTitle ?? t('values.table.title');
  const entries = useMemo(
    () =>
      facts
        ? keyEntries(facts, { data, binaryData })
        : valueEntries(data, binaryData, keys),
    [data, binaryData, keys, facts],
  );
  return (
    <BackstageValues>
      <InfoCard title={title}>
        <ValuesTable entries={entries} label={title} now={now} load={load} />
      </InfoCard>
    </BackstageValues>
  );
};
