import { SecretApproval, SecretWriteAnswer } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useId } from 'react';
import { useKryptonT } from '../../translation';
import {
  ChangeReasonInput,
  useChangeReason,
  useChangeRequested,
} from '../changes';
import {
  OwnedEditReasonField,
  OwnershipBanner,
  useOwnedEditReason,
} from '../owner';
import { AccessFields } from './AccessFields';
import { ConflictDialog } from './ConflictDialog';
import { DiscardDraftDialog } from './DiscardDraftDialog';
import { FormActions } from './FormActions';
import { FormHeader } from './FormHeader';
import { ImmutableField } from './ImmutableField';
import { LoadingSecret } from './LoadingSecret';
import { MetadataFields } from './MetadataFields';
import { SizeMeter } from './SizeMeter';
import { useLeaveGuard } from './useLeaveGuard';
import { useSaveAndReload } from './useSaveAndReload';
import { SecretFormSubject, useSecretFormModel } from './useSecretFormModel';
import { useValueFiles } from './useValueFiles';
import { ValuesSection } from './ValuesSection';

interface SecretFormCommonProps {
  /**
   * Called after a successful create or update with the Secret the backend returned, as the form
   * keeps it: without values when the backend omitted them or `keepValues` is false.
   */
  onSaved: (secret: SecretWriteAnswer) => void;
  /**
   * Whether the user may change access rules, the description and immutability (owners and
   * admins); the access fields are hidden and the others disabled otherwise.
   */
  canEditAccess: boolean;
  /**
   * Whether the user's decisions let them reveal this Secret's values. When false the form keeps
   * no values from any answer, even one that carries them, and loads the Secret's metadata only.
   */
  keepValues: boolean;
  /**
   * Told whether the draft holds changes that a discard would lose: an edit that differs from
   * its loaded revision or an unapplied paste, or a create the user has typed into.
   */
  onDirtyChange?: (dirty: boolean) => void;
  /**
   * The live Secret the form's own Reload latest loaded (as the form keeps it), so that the page's
   * facts and its other actions' expected revision move forward with the draft.
   */
  onReloaded?: (live: SecretWriteAnswer) => void;
  /**
   * The live Secret's approval policy (its summary's): an edit then asks for approval, with the
   * user's reason, and the Secret's page takes the change request it becomes.
   */
  approval?: SecretApproval;
}

/**
 * What an edit form shows and changes: everything, or (`metadata`) only the description and the
 * access rules. A metadata form reads the Secret's metadata only and never sends values, so the
 * data stays byte for byte as it is.
 */
export type SecretFormScope = 'all' | 'metadata';

/**
 * The form pins the location it was mounted with, like its draft: key it by location so another
 * Secret gets a fresh form rather than this draft.
 */
export type SecretFormProps = SecretFormCommonProps &
  (
    | Extract<SecretFormSubject, { mode: 'create' }>
    | (Extract<SecretFormSubject, { mode: 'edit' }> & {
        scope?: SecretFormScope;
      })
  );

/** Create or edit one Secret: text values, description, immutability and access rules. */
export function SecretForm(props: SecretFormProps) {
  const { onSaved, onReloaded, canEditAccess } = props;
  const metadataOnly = props.mode === 'edit' && props.scope === 'metadata';
  const t = useKryptonT();
  const reasonId = useId();
  const fieldId = useId();
  const model = useSecretFormModel(props, metadataOnly);
  const { draft, baseline, update, isEdit, errors, valuesWithheld } = model;
  // Leaving the Secret's page for another route asks first; its tabs keep the form mounted.
  const leaveGuard = useLeaveGuard(model.dirty);
  const files = useValueFiles(update, isEdit);
  // The live Secret's owner decides whether a change goes through, and with whose reason; a
  // Reload latest that finds another owner moves the rule with it.
  const owned = useOwnedEditReason(isEdit ? baseline?.owner : undefined);
  const blocked = model.blocked ?? owned.blocked;
  const reason = useChangeReason(isEdit ? props.approval : undefined);
  const requests = useSaveAndReload({
    model: {
      ...model,
      blocked,
      updateRequest: model.updateRequest && {
        ...model.updateRequest,
        ...owned.request,
        ...reason.request,
      },
    },
    canEditAccess,
    onSaved,
    onReloaded,
    onRequested: useChangeRequested(),
  });
  const { saving, reloading, reload } = requests;
  const busy = saving || reloading;

  if (isEdit && !baseline) {
    return (
      <LoadingSecret
        error={requests.reloadError}
        retrying={reloading}
        onRetry={reload}
      />
    );
  }

  let formName: string = t('edit.form.createName');
  if (baseline) {
    formName = metadataOnly
      ? t('edit.form.metadataName', { name: baseline.name })
      : t('edit.form.editName', { name: baseline.name });
  }
  return (
    <form
      onSubmit={e => {
        owned.touch();
        requests.onSubmit(e);
      }}
      noValidate
      aria-label={formName}
    >
      {/* A disabled fieldset keeps edits out while a save or reload is about to replace them. */}
      <fieldset
        disabled={busy}
        style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
      >
        <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
          <FormHeader
            baseline={baseline}
            isEdit={isEdit}
            newerAvailable={model.newerAvailable}
            reloadError={requests.reloadError}
            saveError={requests.saveError}
            onReload={reload}
          />

          {isEdit && baseline && <OwnershipBanner secret={baseline} compact />}

          <MetadataFields
            fieldId={fieldId}
            draft={draft}
            errors={errors}
            update={update}
            creating={!isEdit}
            descriptionOwnersOnly={model.descriptionOwnersOnly}
          />

          {metadataOnly && (
            <Typography variant="body2" color="textSecondary">
              {t('edit.form.metadataOnly')}
            </Typography>
          )}
          {!metadataOnly && (
            <ValuesSection
              draft={draft}
              baseline={baseline}
              update={update}
              errors={errors}
              isEdit={isEdit}
              keepValues={model.keepValues}
              valuesWithheld={valuesWithheld}
              binaryKeys={model.binaryKeys}
              binaryLocked={model.binaryLocked}
              dataLocked={model.dataLocked}
              textData={model.textData}
              files={files}
            />
          )}

          {!metadataOnly && (
            <ImmutableField
              fieldId={fieldId}
              isEdit={isEdit}
              fixed={isEdit && (baseline?.immutable ?? false)}
              checked={draft.immutable}
              ownerOnly={model.immutableOwnerOnly}
              onChange={immutable => update(d => ({ ...d, immutable }))}
            />
          )}

          {canEditAccess && (
            <AccessFields
              picker
              values={draft.access}
              errors={errors.access}
              onChange={(role, value) =>
                update(d => ({ ...d, access: { ...d.access, [role]: value } }))
              }
            />
          )}

          {/* Without values there is nothing to estimate: such an edit never writes data. */}
          {!valuesWithheld && !metadataOnly && (
            <SizeMeter bytes={model.size} writesData={model.writesData} />
          )}

          <OwnedEditReasonField id={`${fieldId}-owned-reason`} state={owned} />
          <ChangeReasonInput id={`${fieldId}-change-reason`} state={reason} />

          <FormActions
            isEdit={isEdit}
            requestsApproval={reason.approval !== undefined}
            saving={saving}
            reloading={reloading}
            blocked={blocked}
            reasonId={reasonId}
            onReload={reload}
          />
        </Box>
      </fieldset>
      <DiscardDraftDialog
        open={leaveGuard.asking}
        onKeep={leaveGuard.stay}
        onDiscard={leaveGuard.leave}
      />
      <ConflictDialog
        failure={requests.conflict}
        onClose={requests.closeConflict}
        onReload={requests.reloadAfterConflict}
      />
    </form>
  );
}
