import { useId } from 'react';
import type { ValueEntry } from './entries';
import { formatBytes } from './entries';
import { useValuesHost } from './host';
import { RawText } from './RawText';
import { MASK, NONE, cellText, useValueRow } from './valueRow';
import { ValuePreview } from './ValuePreview';

const COLUMNS = 5;

const ValueRow = ({ entry, now }: { entry: ValueEntry; now?: Date }) => {
  const { t, classes, Text, ActionButton, table } = useValuesHost();
  const { Row, Cell } = table;
  const keyId = useId();
  const panelId = useId();
  const { revealed, panel, copyStatus, toggleReveal, togglePanel, copy } =
    useValueRow(entry);
  const { value, kind } = entry;
  const isText = kind === 'text';

  let shown;
  if (value === undefined) {
    shown = <Text kind="body">{t('values.row.notAvailable')}</Text>;
  } else if (revealed) {
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
          {value !== undefined && (
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

export interface ValuesTableProps {
  entries: ValueEntry[];
  /** The table's accessible name. */
  label: string;
  /** The time certificates are checked against; injectable for tests. */
  now?: Date;
}

/**
 * One row per key: kind, size, the value masked until revealed, and Reveal, Expand value (the
 * preview), Raw and Copy. Read-only by design, which is what binary values require: they are
 * viewed and copied as base64.
 */
export const ValuesTable = ({ entries, label, now }: ValuesTableProps) => {
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
          <ValueRow key={entry.key} entry={entry} now={now} />
        ))}
      </Body>
    </Table>
  );
};
