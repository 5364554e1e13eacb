import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import Radio from '@material-ui/core/Radio';
import RadioGroup from '@material-ui/core/RadioGroup';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useId, useMemo } from 'react';
import {
  BulkIssue,
  BulkMode,
  BulkPlan,
  parseBulk,
  planBulk,
} from './bulkParse';

export interface BulkEditorProps {
  /** The draft's current text values, which the paste merges into or replaces. */
  current: Record<string, string>;
  binaryKeys: readonly string[];
  text: string;
  mode: BulkMode;
  disabled: boolean;
  onTextChange: (text: string) => void;
  onModeChange: (mode: BulkMode) => void;
  onApply: (plan: BulkPlan) => void;
}

interface Preview {
  issues: BulkIssue[];
  plan: BulkPlan;
}

function preview(
  text: string,
  current: Record<string, string>,
  binaryKeys: readonly string[],
  mode: BulkMode,
): Preview {
  const parsed = parseBulk(text);
  const issues = [...parsed.issues];
  for (const key of parsed.keys) {
    if (binaryKeys.includes(key)) {
      issues.push({
        line: 0,
        message: `"${key}" is a binary key: it is kept as is and cannot be set as text.`,
      });
    }
  }
  return { issues, plan: planBulk(current, parsed, mode) };
}

function KeyList({ title, keys }: { title: string; keys: string[] }) {
  const id = useId();
  if (keys.length === 0) return null;
  return (
    <Box mt={1}>
      <Typography variant="subtitle2" id={id}>
        {title} ({keys.length})
      </Typography>
      <ul aria-labelledby={id}>
        {keys.map(key => (
          <li key={key}>
            <code>{key}</code>
          </li>
        ))}
      </ul>
    </Box>
  );
}

/**
 * Paste `.env` lines into the draft. The preview lists keys only: the pasted values are already
 * on screen in the text area, and the preview must not repeat existing values next to them.
 */
export function BulkEditor(props: BulkEditorProps) {
  const { current, binaryKeys, text, mode, disabled } = props;
  const { issues, plan } = useMemo(
    () => preview(text, current, binaryKeys, mode),
    [text, current, binaryKeys, mode],
  );
  const changes = plan.added.length + plan.changed.length + plan.removed.length;
  const pasted = text.trim() !== '';
  const fieldId = useId();

  return (
    <Box>
      <TextField
        id={fieldId}
        label="Paste KEY=value lines"
        helperText="One KEY=value per line, as in a .env file. Blank lines and # comments are ignored; export and quotes are allowed."
        multiline
        minRows={4}
        maxRows={12}
        fullWidth
        variant="outlined"
        value={text}
        disabled={disabled}
        onChange={e => props.onTextChange(e.target.value)}
        inputProps={{ spellCheck: false, autoComplete: 'off' }}
      />
      <RadioGroup
        row
        aria-label="How to apply the pasted lines"
        value={mode}
        onChange={e => props.onModeChange(e.target.value as BulkMode)}
      >
        <FormControlLabel
          value="merge"
          control={<Radio />}
          label="Merge: keep keys not in the paste"
          disabled={disabled}
        />
        <FormControlLabel
          value="replace"
          control={<Radio />}
          label="Replace all: remove text keys not in the paste"
          disabled={disabled}
        />
      </RadioGroup>
      {pasted && (
        <Box
          role="region"
          aria-label="Preview of the pasted lines"
          border={1}
          borderColor="divider"
          borderRadius={4}
          p={2}
        >
          <Typography variant="subtitle1">
            Preview (values are not shown)
          </Typography>
          {issues.length > 0 && (
            <Box role="alert">
              <Typography variant="subtitle2" color="error">
                Fix these lines before applying
              </Typography>
              <ul>
                {issues.map((issue, index) => (
                  <li key={index}>
                    {issue.line > 0 ? `Line ${issue.line}: ` : ''}
                    {issue.message}
                  </li>
                ))}
              </ul>
            </Box>
          )}
          <KeyList title="Added" keys={plan.added} />
          <KeyList title="Changed" keys={plan.changed} />
          <KeyList title="Removed" keys={plan.removed} />
          {plan.unchanged.length > 0 && (
            <Typography variant="body2" color="textSecondary">
              {plan.unchanged.length} key(s) unchanged.
            </Typography>
          )}
          {issues.length === 0 && changes === 0 && (
            <Typography variant="body2">Nothing to change.</Typography>
          )}
          <Box mt={1} display="flex" style={{ gap: 8 }}>
            <Button
              variant="contained"
              color="primary"
              disabled={disabled || issues.length > 0 || changes === 0}
              onClick={() => props.onApply(plan)}
            >
              Apply pasted lines
            </Button>
            <Button onClick={() => props.onTextChange('')} disabled={disabled}>
              Clear
            </Button>
          </Box>
        </Box>
      )}
    </Box>
  );
}
