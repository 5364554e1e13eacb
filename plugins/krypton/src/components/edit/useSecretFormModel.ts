import {
  MAX_SECRET_BYTES,
  SecretWriteAnswer,
  UpdateSecretRequest,
  estimateSecretSize,
} from '@krypton/core';
import { Dispatch, SetStateAction, useEffect, useMemo, useState } from 'react';
import { NamespaceLocation, SecretLocation } from '../../api/KryptonApi';
import { KryptonT, useKryptonT } from '../../translation';
import { carriesValues, keptAnswer } from '../writeAnswer';
import {
  DraftErrors,
  buildUpdateRequest,
  createDraftHasInput,
  draftBinaryData,
  draftTextData,
  hasErrors,
  updateChangesSomething,
  validateDraft,
} from './draft';
import { PinnedDraft, useDraft } from './useDraft';

/** What a form creates or edits: the one place of the create/edit union of its props. */
export type SecretFormSubject =
  | { mode: 'create'; location: NamespaceLocation; initial?: undefined }
  | {
      mode: 'edit';
      location: SecretLocation;
      /** The Secret as the page knows it; without it the form loads it. Later values only raise a notice. */
      initial?: SecretWriteAnswer;
    };

/** The part of the form's props that decides its state; SecretFormProps fits it. */
export type SecretFormModelProps = {
  keepValues: boolean;
  canEditAccess: boolean;
  onDirtyChange?: (dirty: boolean) => void;
} & SecretFormSubject;

export interface SecretFormModel extends PinnedDraft {
  /** The Secret a save updates; undefined until a create form has created one. */
  target?: SecretLocation;
  setTarget: Dispatch<SetStateAction<SecretLocation | undefined>>;
  /** Where a create form creates, pinned at mount like the draft. */
  namespace: NamespaceLocation;
  isEdit: boolean;
  /** The `keepValues` prop, narrowed by the scope. */
  keepValues: boolean;
  /** An edit form mounted without its Secret loads it; with one, it never refetches on its own. */
  needsLoad: boolean;
  valuesWithheld: boolean;
  binaryKeys: readonly string[];
  textData: Record<string, string>;
  errors: DraftErrors;
  size: number;
  updateRequest?: UpdateSecretRequest;
  writesData: boolean;
  dirty: boolean;
  binaryLocked: boolean;
  dataLocked: boolean;
  immutableOwnerOnly: boolean;
  descriptionOwnersOnly: boolean;
  /** Why the form may not be submitted now; undefined when it may. */
  blocked?: string;
}

const NO_KEYS: readonly string[] = [];

function blockedBy(
  model: Pick<SecretFormModel, 'errors' | 'writesData' | 'size'> & {
    /** The bulk-paste box holds text that was not applied. */
    pasting: boolean;
    /** An update request that changes nothing; false for a create. */
    unchangedUpdate: boolean;
  },
  t: KryptonT,
): string | undefined {
  const { errors, pasting, writesData, size, unchangedUpdate } = model;
  if (hasErrors(errors)) return t('edit.form.blocked.fixFields');
  if (pasting) return t('edit.form.blocked.applyPaste');
  if (writesData && size > MAX_SECRET_BYTES)
    return t('edit.form.blocked.tooLarge');
  if (unchangedUpdate) return t('edit.form.blocked.noChanges');
  return undefined;
}

/**
 * The form's state (the pinned draft and what it saves to) and everything derived from it:
 * validation, size, the update request, dirtiness and what is locked or blocked.
 *
 * @param metadataOnly - an edit form of the description and access rules only
 */
export function useSecretFormModel(
  props: SecretFormModelProps,
  metadataOnly: boolean,
): SecretFormModel {
  const { canEditAccess, onDirtyChange } = props;
  // A form that edits metadata only keeps no values, whatever the user may reveal: it has nothing
  // to show them in, and a save without data keeps them as they are.
  const keepValues = props.keepValues && !metadataOnly;
  const t = useKryptonT();
  // Values the user may not reveal never enter the draft, whoever handed them over.
  const initial = useMemo(
    () => props.initial && keptAnswer(props.initial, keepValues),
    [props.initial, keepValues],
  );
  const pinned = useDraft(initial, props.mode === 'edit');
  const { draft, baseline } = pinned;
  // After a create, the same form edits the created Secret; a second submit must not POST again.
  const [target, setTarget] = useState<SecretLocation | undefined>(() =>
    props.mode === 'edit' ? props.location : undefined,
  );
  const [namespace] = useState<NamespaceLocation>(() => ({
    cluster: props.location.cluster,
    namespace: props.location.namespace,
  }));

  const isEdit = target !== undefined;
  // An edit without values (the backend omitted them, or the user may not reveal them) changes
  // metadata only: there are no values to show, compare or send.
  const valuesWithheld = baseline !== undefined && !carriesValues(baseline);
  const binaryKeys = baseline?.binaryKeys ?? NO_KEYS;
  const binaryData =
    baseline && carriesValues(baseline) ? baseline.binaryData : undefined;
  const textData = useMemo(() => draftTextData(draft), [draft]);
  // The binary values the Secret would hold: the kept ones of an edit, or a create's files.
  const sizedBinary = useMemo(
    () => ({ ...binaryData, ...draftBinaryData(draft) }),
    [binaryData, draft],
  );
  const errors = useMemo(
    () =>
      validateDraft(
        draft,
        {
          mode: isEdit ? 'edit' : 'create',
          binaryKeys,
          canEditAccess,
        },
        t,
      ),
    [draft, isEdit, binaryKeys, canEditAccess, t],
  );
  const size = useMemo(
    () => estimateSecretSize(textData, sizedBinary),
    [textData, sizedBinary],
  );
  const updateRequest = useMemo(
    () =>
      baseline ? buildUpdateRequest(draft, baseline, canEditAccess) : undefined,
    [draft, baseline, canEditAccess],
  );
  const writesData = updateRequest ? updateRequest.data !== undefined : true;
  const pasting = draft.bulkText.trim() !== '';
  const changes =
    updateRequest !== undefined && updateChangesSomething(updateRequest);
  const dirty = isEdit ? pasting || changes : createDraftHasInput(draft);
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
  // The spec leaves a binary-containing Secret's bytes to Kubernetes tooling: its values are
  // read-only here, and a save changes the metadata only.
  const binaryLocked = isEdit && binaryKeys.length > 0;
  const dataLocked = (baseline?.immutable ?? false) || binaryLocked;

  return {
    ...pinned,
    target,
    setTarget,
    namespace,
    isEdit,
    keepValues,
    needsLoad: props.mode === 'edit' && props.initial === undefined,
    valuesWithheld,
    binaryKeys,
    textData,
    errors,
    size,
    updateRequest,
    writesData,
    dirty,
    binaryLocked,
    dataLocked,
    // Making a Secret immutable is an owner's decision (the backend asks for manageAccess), like
    // the description and the rules; a creator decides it for their new Secret.
    immutableOwnerOnly: isEdit && !canEditAccess,
    descriptionOwnersOnly: props.mode === 'edit' && !canEditAccess,
    blocked: blockedBy(
      {
        errors,
        pasting,
        writesData,
        size,
        unchangedUpdate: updateRequest !== undefined && !changes,
      },
      t,
    ),
  };
}
