import { useId, useMemo } from 'react';
import type { ValueEntry } from './entries';
import { formatBytes } from './entries';
import { useValuesHost } from './host';
import { RawText } from './RawText';
import { MASK, NONE, cellText, useValueRow } from './valueRow';
import { ValuePreview } from './ValuePreview';

const COLUMNS = 5;

const ValueRow = ({
  entry,
  now,
  load,
}: {
  entry: ValueEntry;
  now?: Date;
  load?: (key: string) => Promise<string | undefined>;
}) => {
  const { t, classes, Text, ActionButton, table } = useValuesHost();
  const { Row, Cell } = table;
  const keyId = useId();
  const panelId = useId();
  const { value, kind, key } = entry;
  const fetchValue = useMemo(
    () => (load ? () => load(key) : undefined),
    [load, key],
  );
  const {
    revealed,
    panel,
    copyStatus,
    loading,
    loadFailed,
    toggleReveal,
    togglePanel,
    copy,
  } = useValueRow(entry, fetchValue);
  const isText = kind === 'text';
  // A value the entry does not carry is there to be fetched when the host can load it.
  const available =
    kind !== 'missing' && (value !== undefined || load !== undefined);

  let shown;
  if (!available) {
    shown = <Text kind="body">{t('values.row.notAvailable')}</Text>;
  } else if (revealed && value === undefined && loading) {
    shown = <Text kind="body">{t('values.row.loading')}</Text>;
  } else if (revealed && value !== undefined) {
    shown = (
      <code
        className={classes.cellValue}
        title={kind === 'binary' ? t('values.row.base64') : undefined}
      >
        {cellText(value)}
      </code>
    );
  } else {
    // Only placeholder text until revealed, so the value is not in the DOM at all.
    shown = (
      <>
        <span aria-hidden="true">{MASK}</span>
        <span className={classes.visuallyHidden}>{t('values.row.hidden')}</span>
      </>
    );
  }

  return (
    <>
      <Row>
        <Cell rowHeader>
          <span id={keyId} className={classes.valueKey}>
            {entry.key}
          </span>
        </Cell>
        <Cell>
          {t(`values.kinds.${kind}`)}
          {kind === 'binary' && revealed && (
            <Text kind="caption">{t('values.row.shownAsBase64')}</Text>
          )}
        </Cell>
        <Cell>{kind === 'missing' ? NONE : formatBytes(entry.bytes, t)}</Cell>
        <Cell>{shown}</Cell>
        <Cell>
          {available && (
            <div className={classes.actions}>
              <ActionButton
                action={revealed ? 'hide' : 'reveal'}
                label={revealed ? t('values.row.hide') : t('values.row.reveal')}
                describedBy={keyId}
                onClick={toggleReveal}
              />
              {/* Binary values are never previewed as text: only base64 via Reveal and Copy. */}
              {isText && (
                <>
                  <ActionButton
                    action="expand"
                    label={t('values.row.expand')}
                    describedBy={keyId}
                    expanded={panel === 'preview'}
                    controls={panel === 'preview' ? panelId : undefined}
                    onClick={() => togglePanel('preview')}
                  />
                  <ActionButton
                    action="raw"
                    label={t('values.row.raw')}
                    describedBy={keyId}
                    pressed={panel === 'raw'}
                    onClick={() => togglePanel('raw')}
                  />
                </>
              )}
              <ActionButton
                action="copy"
                label={t('values.row.copy')}
                describedBy={keyId}
                onClick={copy}
              />
              <Text kind="status">
                {copyStatus === 'copied' && t('values.row.copied')}
                {copyStatus === 'failed' && t('values.row.copyFailed')}
                {copyStatus !== 'failed' &&
                  loadFailed &&
                  t('values.row.loadFailed')}
              </Text>
            </div>
          )}
        </Cell>
      </Row>
      {isText && value !== undefined && panel && (
        <Row className={classes.panel}>
          <Cell colSpan={COLUMNS} id={panelId}>
            {panel === 'preview' ? (
              <ValuePreview value={value} now={now} />
            ) : (
              <RawText
                text={value}
                label={t('values.row.rawLabel', { key: entry.key })}
              />
            )}
          </Cell>
        </Row>
      )}
    </>
  );
};

/** @public */
export interface ValuesTableProps {
  entries: ValueEntry[];
  /**
   * Fetches the value of a key whose entry does not carry one yet, when the user asks for it
   * (Reveal, Expand value, Raw, Copy); resolves undefined when it could not be read. Without it,
   * such a key has no value to show.
   */
  load?: (key: string) => Promise<string | undefined>;
  /** The table's accessible name. */
  label: string;
  /** The time certificates are checked against; injectable for tests. */
  now?: Date;
}

/**
 * One row per key: kind, size, the value masked until revealed, and Reveal, Expand value (the
 * preview), Raw and Copy. Read-only by design, which is what binary values require: they are
 * viewed and copied as base64.
 *
 * @public
 */
export const ValuesTable = ({
  entries,
  label,
  now,
  load,
}: ValuesTableProps) => {
  const { t, Text, table } = useValuesHost();
  const { Table, Head, Body, Row, Cell } = table;
  if (entries.length === 0) {
    return <Text kind="body">{t('values.table.empty')}</Text>;
  }
  return (
    <Table label={label}>
      <Head>
        <Row>
          <Cell>{t('values.table.key')}</Cell>
          <Cell>{t('values.table.kind')}</Cell>
          <Cell>{t('values.table.size')}</Cell>
          <Cell>{t('values.table.value')}</Cell>
          <Cell>{t('values.table.actions')}</Cell>
        </Row>
      </Head>
      <Body>
        {entries.map(entry => (
          <ValueRow key={entry.key} entry={entry} now={now} load={load} />
        ))}
      </Body>
    </Table>
  );
};
