import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  MAX_SECRET_BYTES,
  SecretWriteAnswer,
  estimateSecretSize,
  messages,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormHelperText from '@material-ui/core/FormHelperText';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import {
  FormEvent,
  ReactNode,
  useRef,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useState,
} from 'react';
import {
  NamespaceLocation,
  SecretLocation,
  kryptonApiRef,
} from '../../api/KryptonApi';
import { Failure, failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { KeyList } from '../values/KeyList';
import { formatVersion } from '../list/secretRows';
import { carriesValues, keptAnswer, withoutValues } from '../writeAnswer';
import { AccessFields } from './AccessFields';
import { BulkEditor } from './BulkEditor';
import { BulkPlan } from './bulkParse';
import { ConflictDialog } from './ConflictDialog';
import { DiscardDraftDialog } from './DiscardDraftDialog';
import {
  TextRow,
  applyBulkPlan,
  buildCreateRequest,
  buildUpdateRequest,
  createDraftHasInput,
  draftBinaryData,
  draftTextData,
  hasErrors,
  newRowId,
  updateChangesSomething,
  validateDraft,
} from './draft';
import { keyFromFileName, readFileValue } from './fileValue';
import { SizeMeter } from './SizeMeter';
import {
  BinaryEditNotice,
  BinaryKeys,
  BinaryRows,
  FileButton,
  TextRows,
} from './TextRows';
import { useDraft } from './useDraft';
import { useLeaveGuard } from './useLeaveGuard';

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
    | { mode: 'create'; location: NamespaceLocation; initial?: undefined }
    | {
        mode: 'edit';
        location: SecretLocation;
        /** The Secret as the page knows it; without it the form loads it. Later values only raise a notice. */
        initial?: SecretWriteAnswer;
        scope?: SecretFormScope;
      }
  );

const NO_KEYS: readonly string[] = [];

/** The backend's fixed message; a failure without an answer (the network) gets a text of ours. */
const describe = (failure: Failure, fallback: string) =>
  failure.kind === 'network' ? fallback : failure.message;

/** Create or edit one Secret: text values, description, immutability and access rules. */
export function SecretForm(props: SecretFormProps) {
  const { onSaved, onReloaded, canEditAccess } = props;
  const metadataOnly = props.mode === 'edit' && props.scope === 'metadata';
  // A form that edits metadata only keeps no values, whatever the user may reveal: it has nothing
  // to show them in, and a save without data keeps them as they are.
  const keepValues = props.keepValues && !metadataOnly;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const reasonId = useId();
  const fieldId = useId();
  // Values the user may not reveal never enter the draft, whoever handed them over.
  const initial = useMemo(
    () => props.initial && keptAnswer(props.initial, keepValues),
    [props.initial, keepValues],
  );
  const { draft, baseline, newerAvailable, update, startPin } = useDraft(
    initial,
    props.mode === 'edit',
  );
  // After a create, the same form edits the created Secret; a second submit must not POST again.
  const [target, setTarget] = useState<SecretLocation | undefined>(() =>
    props.mode === 'edit' ? props.location : undefined,
  );
  const [namespace] = useState<NamespaceLocation>(() => ({
    cluster: props.location.cluster,
    namespace: props.location.namespace,
  }));
  const [saving, setSaving] = useState(false);
  const [reloading, setReloading] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [reloadError, setReloadError] = useState<string>();
  const [conflict, setConflict] = useState<Failure>();
  const [fileError, setFileError] = useState<string>();
  const inFlight = useRef(false);

  const isEdit = target !== undefined;
  const busy = saving || reloading;
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
  const dirty = isEdit
    ? draft.bulkText.trim() !== '' ||
      (updateRequest !== undefined && updateChangesSomething(updateRequest))
    : createDraftHasInput(draft);
  const { onDirtyChange } = props;
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
  // Leaving the Secret's page for another route asks first; its tabs keep the form mounted.
  const leaveGuard = useLeaveGuard(dirty);
  // The spec leaves a binary-containing Secret's bytes to Kubernetes tooling: its values are
  // read-only here, and a save changes the metadata only.
  const binaryLocked = isEdit && binaryKeys.length > 0;
  const dataLocked = (baseline?.immutable ?? false) || binaryLocked;
  let lockedReason: ReactNode;
  if (baseline?.immutable) {
    lockedReason = t('edit.form.immutableLocked');
  } else if (binaryLocked && baseline) {
    lockedReason = (
      <BinaryEditNotice
        namespace={baseline.namespace}
        name={baseline.name}
        binaryKey={binaryKeys[0]}
      />
    );
  }
  // Making a Secret immutable is an owner's decision (the backend asks for manageAccess), like the
  // description and the rules; a creator decides it for their new Secret.
  const immutableOwnerOnly = isEdit && !canEditAccess;
  const immutableReasonId = `${fieldId}-immutable-reason`;

  const blockedBy = (): string | undefined => {
    if (hasErrors(errors)) return t('edit.form.blocked.fixFields');
    if (draft.bulkText.trim() !== '') return t('edit.form.blocked.applyPaste');
    if (writesData && size > MAX_SECRET_BYTES)
      return t('edit.form.blocked.tooLarge');
    if (updateRequest && !updateChangesSomething(updateRequest))
      return t('edit.form.blocked.noChanges');
    return undefined;
  };
  const blocked = blockedBy();
  let saveLabel: string = isEdit ? t('edit.form.save') : t('edit.form.create');
  if (saving) saveLabel = t('edit.form.saving');

  const reload = useCallback(async () => {
    if (!target) return;
    setReloading(true);
    setReloadError(undefined);
    const commit = startPin();
    try {
      // Without reveal rights only the metadata is fetched: a value read would be refused (and
      // audited), and its values could not be kept anyway.
      const live: SecretWriteAnswer = keepValues
        ? await api.getSecret(target)
        : withoutValues(await api.getSecretSummary(target));
      const kept = keptAnswer(live, keepValues);
      commit(kept);
      onReloaded?.(kept);
      setSaveError(undefined);
      setConflict(undefined);
    } catch (e) {
      setReloadError(describe(failureOf(e), t('edit.form.unreachable')));
    } finally {
      setReloading(false);
    }
  }, [api, startPin, target, keepValues, onReloaded, t]);

  // An edit form mounted without its Secret loads it; with one, it never refetches on its own.
  const needsLoad = props.mode === 'edit' && props.initial === undefined;
  useEffect(() => {
    if (needsLoad) reload();
    // Only on mount: later loads are the user's Reload latest.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const save = async () => {
    // The ref, not state, guards a second submit that arrives before the re-render.
    if (blocked !== undefined || inFlight.current) return;
    // An edit form never falls back to create.
    if (target && !updateRequest) return;
    inFlight.current = true;
    setSaving(true);
    setSaveError(undefined);
    const commit = startPin();
    try {
      let answer: SecretWriteAnswer;
      if (target && updateRequest) {
        answer = await api.updateSecret(target, updateRequest);
      } else {
        answer = await api.createSecret(
          namespace,
          buildCreateRequest(draft, canEditAccess),
        );
        setTarget({ ...namespace, name: answer.name });
      }
      // The new baseline is the answer as it may be kept: with a redacted answer the draft loses
      // its values too (what the user typed included), so nothing of them outlives the save.
      const saved = keptAnswer(answer, keepValues);
      commit(saved);
      onSaved(saved);
    } catch (e) {
      const failure = failureOf(e);
      // On create, 409 means the name is taken: there is nothing to reload.
      if (
        isEdit &&
        (failure.kind === 'staleRevision' || failure.kind === 'conflict')
      ) {
        setConflict(failure);
      } else {
        setSaveError(describe(failure, t('edit.form.saveUnconfirmed')));
      }
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };

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
  const notTextHint = isEdit
    ? t('edit.form.notTextHint.edit')
    : t('edit.form.notTextHint.create');
  // The row may be gone, or the draft reset by a save or reload, by the time the file is read:
  // the update then finds no row of that id and changes nothing.
  const loadFile = async (id: string, file: File) => {
    const read = await readFileValue(file, 'text', notTextHint, t);
    if (read.kind === 'refused') {
      setFileError(read.reason);
      return;
    }
    if (read.kind !== 'text') return;
    setFileError(undefined);
    const suggested = keyFromFileName(file.name);
    update(d => ({
      ...d,
      rows: d.rows.map(row =>
        row.id === id
          ? {
              ...row,
              value: read.text,
              key: row.key === '' && suggested ? suggested : row.key,
            }
          : row,
      ),
    }));
  };
  const addBinaryFile = async (file: File) => {
    const read = await readFileValue(file, 'binary', notTextHint, t);
    if (read.kind === 'refused') {
      setFileError(read.reason);
      return;
    }
    if (read.kind !== 'binary') return;
    setFileError(undefined);
    update(d => ({
      ...d,
      binaryRows: [
        ...d.binaryRows,
        {
          id: newRowId(),
          key: keyFromFileName(file.name) ?? '',
          base64: read.base64,
          fileName: file.name,
          size: read.size,
        },
      ],
    }));
  };

  if (isEdit && !baseline) {
    return reloadError ? (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={reload} disabled={reloading}>
            {t('edit.form.tryAgain')}
          </Button>
        }
      >
        {t('edit.form.loadFailed', { reason: reloadError })}
      </Alert>
    ) : (
      <Progress />
    );
  }

  let formName: string = t('edit.form.createName');
  if (baseline) {
    formName = metadataOnly
      ? t('edit.form.metadataName', { name: baseline.name })
      : t('edit.form.editName', { name: baseline.name });
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={formName}>
      {/* A disabled fieldset keeps edits out while a save or reload is about to replace them. */}
      <fieldset
        disabled={busy}
        style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
      >
        <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
          {isEdit && baseline && (
            <Box>
              <Typography variant="h6" component="h2">
                {baseline.name}
              </Typography>
              <Typography variant="body2" color="textSecondary">
                {t('edit.form.facts', {
                  namespace: baseline.namespace,
                  type: baseline.type,
                  version: formatVersion(t, baseline.version),
                  revision: baseline.resourceVersion,
                })}
              </Typography>
            </Box>
          )}

          {newerAvailable && (
            <Alert severity="info">{t('edit.form.newerAvailable')}</Alert>
          )}
          {reloadError && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" onClick={reload}>
                  {t('edit.form.tryAgain')}
                </Button>
              }
            >
              {t('edit.form.reloadFailed', { reason: reloadError })}
            </Alert>
          )}
          {saveError && <Alert severity="error">{saveError}</Alert>}
          {baseline?.deletionTimestamp && (
            <Alert severity="warning">{t('edit.form.pendingDeletion')}</Alert>
          )}
          {baseline && baseline.version === null && (
            <Alert severity="warning">{messages.invalidCounter}</Alert>
          )}

          {!isEdit && (
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
              (props.mode === 'edit' && !props.canEditAccess
                ? t('edit.form.descriptionOwnersOnly')
                : undefined)
            }
            // The description is part of the access annotations: the backend lets only owners
            // change it, so an editor's form does not offer what would be refused.
            disabled={props.mode === 'edit' && !props.canEditAccess}
            multiline
            variant="outlined"
          />

          {metadataOnly && (
            <Typography variant="body2" color="textSecondary">
              {t('edit.form.metadataOnly')}
            </Typography>
          )}
          {!metadataOnly &&
            (valuesWithheld && baseline ? (
              <Box>
                <Typography variant="subtitle1" component="h3" gutterBottom>
                  {t('edit.form.values')}
                </Typography>
                <Box mb={1}>
                  <Alert severity="info">
                    {t('edit.form.valuesWithheld')}
                    {keepValues && t('edit.form.valuesWithheldReload')}
                  </Alert>
                </Box>
                <KeyList secret={baseline} />
              </Box>
            ) : (
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
                    onFile={loadFile}
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
                            binaryRows: d.binaryRows.filter(
                              row => row.id !== id,
                            ),
                          }))
                        }
                      />
                      <FileButton
                        label={t('edit.form.binaryFile')}
                        onFile={addBinaryFile}
                      >
                        {open => (
                          <Button
                            variant="outlined"
                            size="small"
                            onClick={open}
                          >
                            {t('edit.form.addBinaryFile')}
                          </Button>
                        )}
                      </FileButton>
                    </Box>
                  )}
                  {fileError && (
                    <Box mt={1}>
                      <Alert
                        severity="error"
                        onClose={() => setFileError(undefined)}
                      >
                        {fileError}
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
                    current={textData}
                    binaryKeys={binaryKeys}
                    text={draft.bulkText}
                    mode={draft.bulkMode}
                    disabled={dataLocked}
                    onTextChange={bulkText => update(d => ({ ...d, bulkText }))}
                    onModeChange={bulkMode => update(d => ({ ...d, bulkMode }))}
                    onApply={applyBulk}
                  />
                </Box>
              </>
            ))}

          {!metadataOnly &&
            (isEdit && baseline?.immutable ? (
              <Typography variant="body2">
                {t('edit.form.immutableFixed')}
              </Typography>
            ) : (
              <Box>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={draft.immutable}
                      disabled={immutableOwnerOnly}
                      inputProps={{
                        'aria-describedby': immutableOwnerOnly
                          ? immutableReasonId
                          : undefined,
                      }}
                      onChange={e =>
                        update(d => ({ ...d, immutable: e.target.checked }))
                      }
                    />
                  }
                  label={
                    isEdit
                      ? t('edit.form.makeImmutable')
                      : t('edit.form.immutableOnCreate')
                  }
                />
                {immutableOwnerOnly && (
                  <FormHelperText id={immutableReasonId}>
                    {t('edit.form.immutableOwnersOnly')}
                  </FormHelperText>
                )}
              </Box>
            ))}

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
            <SizeMeter bytes={size} writesData={writesData} />
          )}

          <Box display="flex" alignItems="center" style={{ gap: 8 }}>
            <Button
              type="submit"
              variant="contained"
              color="primary"
              disabled={blocked !== undefined}
              aria-describedby={blocked ? reasonId : undefined}
            >
              {saveLabel}
            </Button>
            {isEdit && (
              <Button variant="outlined" onClick={reload}>
                {reloading
                  ? t('edit.form.reloading')
                  : t('edit.form.reloadLatest')}
              </Button>
            )}
            {blocked && (
              <Typography variant="body2" color="textSecondary" id={reasonId}>
                {blocked}
              </Typography>
            )}
          </Box>
          {isEdit && (
            <Typography variant="caption" color="textSecondary">
              {t('edit.form.reloadNote')}
            </Typography>
          )}
        </Box>
      </fieldset>
      <DiscardDraftDialog
        open={leaveGuard.asking}
        onKeep={leaveGuard.stay}
        onDiscard={leaveGuard.leave}
      />
      <ConflictDialog
        failure={conflict}
        onClose={() => setConflict(undefined)}
        onReload={() => {
          setConflict(undefined);
          reload();
        }}
      />
    </form>
  );
}
