import { SecretWriteAnswer } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { ReactNode } from 'react';
import { useKryptonT } from '../../translation';
import { KeyList } from '../values/KeyList';
import { BulkEditor } from './BulkEditor';
import { BulkPlan } from './bulkParse';
import { Draft, DraftErrors, TextRow, applyBulkPlan, newRowId } from './draft';
import {
  BinaryEditNotice,
  BinaryKeys,
  BinaryRows,
  FileButton,
  TextRows,
} from './TextRows';
import { PinnedDraft } from './useDraft';
import { ValueFiles } from './useValueFiles';

export interface ValuesSectionProps {
  draft: Draft;
  baseline?: SecretWriteAnswer;
  update: PinnedDraft['update'];
  errors: DraftErrors;
  isEdit: boolean;
  keepValues: boolean;
  valuesWithheld: boolean;
  binaryKeys: readonly string[];
  binaryLocked: boolean;
  dataLocked: boolean;
  /** The draft's text values, as the paste compares against them. */
  textData: Record<string, string>;
  files: ValueFiles;
}

/** The Secret's key names only, for an edit whose values the form does not have. */
function WithheldValues(props: {
  secret: SecretWriteAnswer;
  keepValues: boolean;
}) {
  const t = useKryptonT();
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" gutterBottom>
        {t('edit.form.values')}
      </Typography>
      <Box mb={1}>
        <Alert severity="info">
          {t('edit.form.valuesWithheld')}
          {props.keepValues && t('edit.form.valuesWithheldReload')}
        </Alert>
      </Box>
      <KeyList secret={props.secret} />
    </Box>
  );
}

/** The values: text rows, a create's binary files, and the paste that edits them in bulk. */
export function ValuesSection(props: ValuesSectionProps) {
  const { draft, baseline, update, errors, isEdit, binaryKeys, files } = props;
  const t = useKryptonT();

  if (props.valuesWithheld && baseline) {
    return <WithheldValues secret={baseline} keepValues={props.keepValues} />;
  }

  let lockedReason: ReactNode;
  if (baseline?.immutable) {
    lockedReason = t('edit.form.immutableLocked');
  } else if (props.binaryLocked && baseline) {
    lockedReason = (
      <BinaryEditNotice
        namespace={baseline.namespace}
        name={baseline.name}
        binaryKey={binaryKeys[0]}
      />
    );
  }

  const changeRow = (
    id: string,
    change: Partial<Pick<TextRow, 'key' | 'value'>>,
  ) =>
    update(d => ({
      ...d,
      rows: d.rows.map(row => (row.id === id ? { ...row, ...change } : row)),
    }));
  const toggleRow = (id: string) =>
    update(d => ({
      ...d,
      revealed: d.revealed.includes(id)
        ? d.revealed.filter(r => r !== id)
        : [...d.revealed, id],
    }));
  const removeRow = (id: string) =>
    update(d => {
      const rows = d.rows.filter(row => row.id !== id);
      return {
        ...d,
        rows: rows.length > 0 ? rows : [{ id: newRowId(), key: '', value: '' }],
        revealed: d.revealed.filter(r => r !== id),
      };
    });
  const addRow = () =>
    update(d => ({
      ...d,
      rows: [...d.rows, { id: newRowId(), key: '', value: '' }],
    }));
  const applyBulk = (plan: BulkPlan) => update(d => applyBulkPlan(d, plan));

  return (
    <>
      <Box>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {t('edit.form.values')}
        </Typography>
        <TextRows
          rows={draft.rows}
          revealed={draft.revealed}
          errors={errors.rows}
          locked={lockedReason}
          onChange={changeRow}
          onToggle={toggleRow}
          onRemove={removeRow}
          onAdd={addRow}
          onFile={files.loadFile}
        />
        {!isEdit && (
          <Box mt={1}>
            <BinaryRows
              rows={draft.binaryRows}
              errors={errors.rows}
              onKeyChange={(id, key) =>
                update(d => ({
                  ...d,
                  binaryRows: d.binaryRows.map(row =>
                    row.id === id ? { ...row, key } : row,
                  ),
                }))
              }
              onRemove={id =>
                update(d => ({
                  ...d,
                  binaryRows: d.binaryRows.filter(row => row.id !== id),
                }))
              }
            />
            <FileButton
              label={t('edit.form.binaryFile')}
              onFile={files.addBinaryFile}
            >
              {open => (
                <Button variant="outlined" size="small" onClick={open}>
                  {t('edit.form.addBinaryFile')}
                </Button>
              )}
            </FileButton>
          </Box>
        )}
        {files.fileError && (
          <Box mt={1}>
            <Alert severity="error" onClose={files.dismissFileError}>
              {files.fileError}
            </Alert>
          </Box>
        )}
        <BinaryKeys keys={binaryKeys} />
      </Box>

      <Box>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {t('edit.form.pasteHeading')}
        </Typography>
        <BulkEditor
          current={props.textData}
          binaryKeys={binaryKeys}
          text={draft.bulkText}
          mode={draft.bulkMode}
          disabled={props.dataLocked}
          onTextChange={bulkText => update(d => ({ ...d, bulkText }))}
          onModeChange={bulkMode => update(d => ({ ...d, bulkMode }))}
          onApply={applyBulk}
        />
      </Box>
    </>
  );
}
