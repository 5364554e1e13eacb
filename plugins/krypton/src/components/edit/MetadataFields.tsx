import TextField from '@material-ui/core/TextField';
import { useKryptonT } from '../../translation';
import { Draft, DraftErrors } from './draft';
import { PinnedDraft } from './useDraft';

export interface MetadataFieldsProps {
  /** Prefix of the fields' ids, unique to the form. */
  fieldId: string;
  draft: Draft;
  errors: DraftErrors;
  update: PinnedDraft['update'];
  /** A create form also asks for the name and type, which an edit cannot change. */
  creating: boolean;
  descriptionOwnersOnly: boolean;
}

/** The Secret's name and type (when creating) and its description. */
export function MetadataFields(props: MetadataFieldsProps) {
  const { fieldId, draft, errors, update } = props;
  const t = useKryptonT();
  return (
    <>
      {props.creating && (
        <>
          <TextField
            id={`${fieldId}-name`}
            label={t('edit.form.name')}
            required
            value={draft.name}
            onChange={e => update(d => ({ ...d, name: e.target.value }))}
            error={draft.name !== '' && errors.name !== undefined}
            helperText={
              (draft.name !== '' && errors.name) || t('edit.form.nameHint')
            }
            variant="outlined"
            inputProps={{ spellCheck: false }}
          />
          <TextField
            id={`${fieldId}-type`}
            label={t('edit.form.type')}
            required
            value={draft.type}
            onChange={e => update(d => ({ ...d, type: e.target.value }))}
            error={errors.type !== undefined}
            helperText={errors.type}
            variant="outlined"
            inputProps={{ spellCheck: false }}
          />
        </>
      )}

      <TextField
        id={`${fieldId}-description`}
        label={t('edit.form.description')}
        value={draft.description}
        onChange={e => update(d => ({ ...d, description: e.target.value }))}
        error={errors.description !== undefined}
        helperText={
          errors.description ??
          (props.descriptionOwnersOnly
            ? t('edit.form.descriptionOwnersOnly')
            : undefined)
        }
        // The description is part of the access annotations: the backend lets only owners
        // change it, so an editor's form does not offer what would be refused.
        disabled={props.descriptionOwnersOnly}
        multiline
        variant="outlined"
      />
    </>
  );
}
