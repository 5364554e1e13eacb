import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import Radio from '@material-ui/core/Radio';
import RadioGroup from '@material-ui/core/RadioGroup';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useId, useMemo } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
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
  t: KryptonT,
): Preview {
  const parsed = parseBulk(text, t);
  const issues = [...parsed.issues];
  for (const key of parsed.keys) {
    if (binaryKeys.includes(key)) {
      issues.push({
        line: 0,
        message: t('edit.bulk.binaryKey', { key }),
      });
    }
  }
  return { issues, plan: planBulk(current, parsed, mode) };
}

/** `title` holds the count: the caller words it with the list's length. */
function KeyList({ title, keys }: { title: string; keys: string[] }) {
  const id = useId();
  if (keys.length === 0) return null;
  return (
    <Box mt={1}>
      <Typography variant="subtitle2" id={id}>
        {title}
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
  const t = useKryptonT();
  const { issues, plan } = useMemo(
    () => preview(text, current, binaryKeys, mode, t),
    [text, current, binaryKeys, mode, t],
  );
  const changes = plan.added.length + plan.changed.length + plan.removed.length;
  const pasted = text.trim() !== '';
  const fieldId = useId();

  return (
    <Box>
      <TextField
        id={fieldId}
        label={t('edit.bulk.label')}
        helperText={t('edit.bulk.hint')}
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
        aria-label={t('edit.bulk.modeLabel')}
        value={mode}
        onChange={e => props.onModeChange(e.target.value as BulkMode)}
      >
        <FormControlLabel
          value="merge"
          control={<Radio />}
          label={t('edit.bulk.merge')}
          disabled={disabled}
        />
        <FormControlLabel
          value="replace"
          control={<Radio />}
          label={t('edit.bulk.replace')}
          disabled={disabled}
        />
      </RadioGroup>
      {pasted && (
        <Box
          role="region"
          aria-label={t('edit.bulk.preview')}
          border={1}
          borderColor="divider"
          borderRadius={4}
          p={2}
        >
          <Typography variant="subtitle1">
            {t('edit.bulk.previewTitle')}
          </Typography>
          {issues.length > 0 && (
            <Box role="alert">
              <Typography variant="subtitle2" color="error">
                {t('edit.bulk.fixLines')}
              </Typography>
              <ul>
                {issues.map((issue, index) => (
                  <li key={index}>
                    {issue.line > 0
                      ? t('edit.bulk.line', { line: String(issue.line) })
                      : ''}
                    {issue.message}
                  </li>
                ))}
              </ul>
            </Box>
          )}
          <KeyList
            title={t('edit.bulk.added', { total: String(plan.added.length) })}
            keys={plan.added}
          />
          <KeyList
            title={t('edit.bulk.changed', {
              total: String(plan.changed.length),
            })}
            keys={plan.changed}
          />
          <KeyList
            title={t('edit.bulk.removed', {
              total: String(plan.removed.length),
            })}
            keys={plan.removed}
          />
          {plan.unchanged.length > 0 && (
            <Typography variant="body2" color="textSecondary">
              {t('edit.bulk.unchanged', { count: plan.unchanged.length })}
            </Typography>
          )}
          {issues.length === 0 && changes === 0 && (
            <Typography variant="body2">{t('edit.bulk.nothing')}</Typography>
          )}
          <Box mt={1} display="flex" style={{ gap: 8 }}>
            <Button
              variant="contained"
              color="primary"
              disabled={disabled || issues.length > 0 || changes === 0}
              onClick={() => props.onApply(plan)}
            >
              {t('edit.bulk.apply')}
            </Button>
            <Button onClick={() => props.onTextChange('')} disabled={disabled}>
              {t('edit.bulk.clear')}
            </Button>
          </Box>
        </Box>
      )}
    </Box>
  );
}
