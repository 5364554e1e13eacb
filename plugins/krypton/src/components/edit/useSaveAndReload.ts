import { useApi } from '@backstage/core-plugin-api';
import { SecretWriteAnswer } from '@krypton/core';
import { FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { kryptonApiRef } from '../../api/KryptonApi';
import { Failure, failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { OnChangeRequested, requestOf } from '../changes/changeRequested';
import { keptAnswer, withoutValues } from '../writeAnswer';
import { buildCreateRequest } from './draft';
import { SecretFormModel } from './useSecretFormModel';

export interface SaveAndReloadOptions {
  model: Pick<
    SecretFormModel,
    | 'draft'
    | 'startPin'
    | 'target'
    | 'setTarget'
    | 'namespace'
    | 'isEdit'
    | 'keepValues'
    | 'needsLoad'
    | 'updateRequest'
    | 'blocked'
  >;
  canEditAccess: boolean;
  onSaved: (secret: SecretWriteAnswer) => void;
  onReloaded?: (live: SecretWriteAnswer) => void;
  /** Takes an update that became a change request; without it, the save error says so. */
  onRequested?: OnChangeRequested;
}

export interface SaveAndReload {
  saving: boolean;
  reloading: boolean;
  saveError?: string;
  reloadError?: string;
  /** A save refused because the Secret changed meanwhile; the conflict dialog shows it. */
  conflict?: Failure;
  reload: () => Promise<void>;
  onSubmit: (e: FormEvent) => void;
  closeConflict: () => void;
  reloadAfterConflict: () => void;
}

/** The backend's fixed message; a failure without an answer (the network) gets a text of ours. */
const describe = (failure: Failure, fallback: string) =>
  failure.kind === 'network' ? fallback : failure.message;

/**
 * The form's requests: loading the Secret (on mount when it has none, and on Reload latest) and
 * saving the draft, each pinning its answer as the new baseline, and what they failed with.
 */
export function useSaveAndReload(options: SaveAndReloadOptions): SaveAndReload {
  const { model, canEditAccess, onSaved, onReloaded, onRequested } = options;
  const { draft, startPin, target, setTarget, namespace, isEdit } = model;
  const { keepValues, updateRequest, blocked } = model;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const [saving, setSaving] = useState(false);
  const [reloading, setReloading] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [reloadError, setReloadError] = useState<string>();
  const [conflict, setConflict] = useState<Failure>();
  const inFlight = useRef(false);

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

  const { needsLoad } = model;
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
      const requested = requestOf(e);
      if (requested && onRequested) {
        onRequested(requested);
        return;
      }
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

  return {
    saving,
    reloading,
    saveError,
    reloadError,
    conflict,
    reload,
    onSubmit: (e: FormEvent) => {
      e.preventDefault();
      save();
    },
    closeConflict: () => setConflict(undefined),
    reloadAfterConflict: () => {
      setConflict(undefined);
      reload();
    },
  };
}
