import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import IconButton from '@material-ui/core/IconButton';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import AddIcon from '@material-ui/icons/Add';
import AttachFileIcon from '@material-ui/icons/AttachFile';
import DeleteIcon from '@material-ui/icons/Delete';
import VisibilityIcon from '@material-ui/icons/Visibility';
import VisibilityOffIcon from '@material-ui/icons/VisibilityOff';
import { ReactNode, useId, useRef } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import { BinaryRow, TextRow, isBrowserEditable } from './draft';
import { formatSize } from './SizeMeter';

export interface TextRowsProps {
  rows: TextRow[];
  revealed: readonly string[];
  /** Errors by row id. */
  errors: Record<string, string>;
  /**
   * Why the values cannot be changed here (an immutable Secret, a binary-containing one), shown
   * under the rows; nothing is editable then. Undefined: the values are editable.
   */
  locked?: ReactNode;
  onChange: (
    id: string,
    change: Partial<Pick<TextRow, 'key' | 'value'>>,
  ) => void;
  onToggle: (id: string) => void;
  onRemove: (id: string) => void;
  onAdd: () => void;
  /** A file chosen to fill the row's value. */
  onFile: (id: string, file: File) => void;
}

/** A row's key, the same for text values and binary files. */
function KeyField(props: {
  id: string;
  /** The accessible name, which tells rows apart. */
  label: string;
  value: string;
  error?: string;
  locked?: boolean;
  onChange: (key: string) => void;
}) {
  const t = useKryptonT();
  return (
    <Box flex="0 0 30%">
      <TextField
        id={props.id}
        label={t('edit.rows.key')}
        variant="outlined"
        size="small"
        fullWidth
        value={props.value}
        error={props.error !== undefined}
        helperText={props.error}
        onChange={e => props.onChange(e.target.value)}
        inputProps={{
          'aria-label': props.label,
          readOnly: props.locked,
          spellCheck: false,
        }}
      />
    </Box>
  );
}

/**
 * A button that opens the browser's file chooser. The input itself is hidden and labelled, so
 * the button is what keyboard users reach.
 */
export function FileButton(props: {
  label: string;
  disabled?: boolean;
  onFile: (file: File) => void;
  children: (open: () => void) => ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      {props.children(() => input.current?.click())}
      <input
        ref={input}
        type="file"
        hidden
        aria-label={props.label}
        disabled={props.disabled}
        onChange={e => {
          const file = e.target.files?.[0];
          // Cleared, so that choosing the same file again is a change too.
          e.target.value = '';
          if (file) props.onFile(file);
        }}
      />
    </>
  );
}

const hasLineBreak = (value: string) => /[\r\n]/.test(value);

/** Names a row in labels; a row without a key yet is named by its position. */
const rowName = (t: KryptonT, row: TextRow, index: number) =>
  row.key === ''
    ? t('edit.rows.rowName', { index: String(index + 1) })
    : row.key;

function ValueField({
  id,
  row,
  name,
  shown,
  locked,
  onChange,
}: {
  id: string;
  row: TextRow;
  name: string;
  shown: boolean;
  locked: boolean;
  onChange: (value: string) => void;
}) {
  const t = useKryptonT();
  const editable = !locked && isBrowserEditable(row.value);
  const common = {
    id,
    label: t('edit.rows.value'),
    fullWidth: true,
    variant: 'outlined' as const,
    size: 'small' as const,
    autoComplete: 'off',
  };
  if (shown) {
    return (
      <TextField
        {...common}
        multiline
        maxRows={8}
        value={row.value}
        onChange={e => onChange(e.target.value)}
        helperText={
          isBrowserEditable(row.value)
            ? undefined
            : t('edit.rows.carriageReturns')
        }
        // Enhanced spell checkers send text to a remote service; values must stay here.
        inputProps={{
          'aria-label': t('edit.rows.valueLabel', { name }),
          readOnly: !editable,
          spellCheck: false,
        }}
      />
    );
  }
  // A password input drops line breaks, so a multi-line value is not put into one: it would be
  // rewritten on the first keystroke. It is edited once shown, in a text area.
  const multiLine = hasLineBreak(row.value);
  return (
    <TextField
      {...common}
      type="password"
      value={multiLine ? t('edit.rows.multiLineMask') : row.value}
      onChange={e => onChange(e.target.value)}
      helperText={multiLine ? t('edit.rows.multiLineHint') : undefined}
      inputProps={{
        'aria-label': t('edit.rows.valueLabel', { name }),
        readOnly: multiLine || !editable,
      }}
    />
  );
}

/** The text values of the draft as editable key/value rows, each value masked until shown. */
export function TextRows(props: TextRowsProps) {
  const { rows, revealed, errors } = props;
  const t = useKryptonT();
  const locked = props.locked !== undefined;
  const fieldId = useId();
  return (
    <Box>
      {rows.map((row, index) => {
        const name = rowName(t, row, index);
        const shown = revealed.includes(row.id);
        const error = errors[row.id];
        return (
          <Box
            key={row.id}
            display="flex"
            alignItems="flex-start"
            mb={1}
            style={{ gap: 8 }}
          >
            <KeyField
              id={`${fieldId}-${row.id}-key`}
              label={t('edit.rows.keyOf', { index: String(index + 1) })}
              value={row.key}
              error={error}
              locked={locked}
              onChange={key => props.onChange(row.id, { key })}
            />
            <Box flex="1 1 auto">
              <ValueField
                id={`${fieldId}-${row.id}-value`}
                row={row}
                name={name}
                shown={shown}
                locked={locked}
                onChange={value => props.onChange(row.id, { value })}
              />
            </Box>
            <IconButton
              aria-label={
                shown
                  ? t('edit.rows.hide', { name })
                  : t('edit.rows.show', { name })
              }
              aria-pressed={shown}
              onClick={() => props.onToggle(row.id)}
            >
              {shown ? <VisibilityOffIcon /> : <VisibilityIcon />}
            </IconButton>
            <FileButton
              label={t('edit.rows.loadFile', { name })}
              disabled={locked}
              onFile={file => props.onFile(row.id, file)}
            >
              {open => (
                <IconButton
                  aria-label={t('edit.rows.loadFile', { name })}
                  title={t('edit.rows.loadFileTitle')}
                  onClick={open}
                  disabled={locked}
                >
                  <AttachFileIcon />
                </IconButton>
              )}
            </FileButton>
            <IconButton
              aria-label={t('edit.rows.remove', { name })}
              onClick={() => props.onRemove(row.id)}
              disabled={locked}
            >
              <DeleteIcon />
            </IconButton>
          </Box>
        );
      })}
      <Button
        startIcon={<AddIcon />}
        onClick={props.onAdd}
        disabled={locked}
        variant="outlined"
        size="small"
      >
        {t('edit.rows.add')}
      </Button>
      {locked && (
        <Typography variant="body2" color="textSecondary" component="div">
          {props.locked}
        </Typography>
      )}
    </Box>
  );
}

/** Binary values read from files while creating: a key each, the bytes never shown. */
export function BinaryRows(props: {
  rows: readonly BinaryRow[];
  errors: Record<string, string>;
  onKeyChange: (id: string, key: string) => void;
  onRemove: (id: string) => void;
}) {
  const t = useKryptonT();
  const fieldId = useId();
  return (
    <>
      {props.rows.map(row => {
        const error = props.errors[row.id];
        const name = row.key === '' ? row.fileName : row.key;
        return (
          <Box
            key={row.id}
            display="flex"
            alignItems="flex-start"
            mb={1}
            style={{ gap: 8 }}
          >
            <KeyField
              id={`${fieldId}-${row.id}-key`}
              label={t('edit.rows.binaryKeyOf', { file: row.fileName })}
              value={row.key}
              error={error}
              onChange={key => props.onKeyChange(row.id, key)}
            />
            <Box flex="1 1 auto" pt={1}>
              <Typography variant="body2">
                {t('edit.rows.binaryValue', {
                  file: row.fileName,
                  size: formatSize(t, row.size),
                })}
              </Typography>
            </Box>
            <IconButton
              aria-label={t('edit.rows.removeBinary', { name })}
              onClick={() => props.onRemove(row.id)}
            >
              <DeleteIcon />
            </IconButton>
          </Box>
        );
      })}
    </>
  );
}

/** Binary keys are listed, never editable as text: edits keep them byte for byte. */
export function BinaryKeys({ keys }: { keys: readonly string[] }) {
  const t = useKryptonT();
  const titleId = useId();
  if (keys.length === 0) return null;
  return (
    <Box mt={2}>
      <Typography variant="subtitle2" id={titleId}>
        {t('edit.rows.binaryKeys')}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {t('edit.rows.binaryKeysNote')}
      </Typography>
      <ul aria-labelledby={titleId}>
        {keys.map(key => (
          <li key={key}>
            <code>{key}</code> {t('edit.rows.binaryKept')}
          </li>
        ))}
      </ul>
    </Box>
  );
}

/**
 * The spec's sentence for a binary-containing Secret, and the kubectl command that changes one
 * value's bytes (Krypton keeps no version of a change made that way).
 */
export function BinaryEditNotice(props: {
  namespace: string;
  name: string;
  binaryKey: string;
}) {
  const t = useKryptonT();
  // Shell quoting: the JSON's quotes are escaped inside double quotes, so $(...) still runs.
  const quote = '\\"';
  const json = `{${quote}data${quote}:{${quote}${props.binaryKey}${quote}:${quote}$(base64 -w0 < ${props.binaryKey})${quote}}}`;
  const command = `kubectl -n ${props.namespace} patch secret ${props.name} --type merge -p "${json}"`;
  return (
    <>
      {t('edit.rows.binaryEditIntro')}
      <Box component="pre" mt={1} mb={0} style={{ whiteSpace: 'pre-wrap' }}>
        <code>{command}</code>
      </Box>
      {t('edit.rows.binaryEditOutro')}
    </>
  );
}
