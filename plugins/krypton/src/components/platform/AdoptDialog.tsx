import { Progress, ResponseErrorPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { IdentityMode, SecretListItem, SecretSummary } from '@krypton/core';
import { ownedEditRefusal, ownerToolName } from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { FormEvent, useId, useMemo, useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { NamespaceLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { ActionDecision, decideActions, permitAll } from '../access/decide';
import { usePrincipal } from '../access/usePrincipal';
import { AccessFields } from '../edit/AccessFields';
import {
  OwnedEditReasonField,
  OwnershipBanner,
  useOwnedEditReason,
} from '../owner';
import {
  AdoptDraft,
  adoptDraftFor,
  buildAdoptRequest,
  hasAdoptErrors,
  validateAdoptDraft,
} from './adoptForm';

export interface AdoptDialogProps {
  /** The namespace as the API addresses it (no cluster for the default cluster). */
  location: NamespaceLocation;
  identityMode?: IdentityMode;
  onClose: () => void;
  onAdopted: (secret: SecretSummary) => void;
}

/**
 * Adopting writes the rules and description, so the backend asks for update and manageAccess on
 * the picked Secret: the update permission and, where the Secret already has rules, owner rights.
 */
function useAdoptDecision(
  secret: SecretListItem | undefined,
  identityMode: IdentityMode | undefined,
): ActionDecision | undefined {
  const { principal } = usePrincipal();
  const t = useKryptonT();
  return useMemo(() => {
    if (!secret || !principal) return undefined;
    // Krypton refuses whoever asks: the reason is the owner, not the user's standing.
    const refusal = ownedEditRefusal(secret.owner, t);
    if (refusal !== undefined) return { allowed: false, reason: refusal };
    // The adoptable list carries the policy's answers, judged on each Secret by the backend.
    const allowed = secret.policy?.update ?? false;
    const permitted = permitAll(allowed);
    const decisions = decideActions(
      {
        rules: secret.access,
        principal,
        identityMode,
        // The adoptable list holds only Secrets the server let this user read.
        served: true,
        permitted,
      },
      t,
    );
    if (!decisions.update.allowed) return decisions.update;
    return decisions.manageAccess;
  }, [secret, principal, identityMode, t]);
}

/** Picks an unmanaged Secret of the namespace and takes it into Krypton's management. */
export const AdoptDialog = (props: AdoptDialogProps) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const titleId = useId();
  const fieldId = useId();
  const reasonId = useId();
  const { principal } = usePrincipal();
  const { cluster, namespace } = props.location;
  const adoptable = useAsyncRetry(
    () => api.listSecrets({ cluster, namespace }, { adoptable: true }),
    [api, cluster, namespace],
  );
  const [pickedName, setPickedName] = useState('');
  const [draft, setDraft] = useState<AdoptDraft>();
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string>();

  const items = adoptable.value?.items ?? [];
  const picked = items.find(s => s.name === pickedName);
  const decision = useAdoptDecision(picked, props.identityMode);
  const errors = draft ? validateAdoptDraft(draft, t) : undefined;
  const owned = useOwnedEditReason(picked?.owner);
  const refusedCount = items.filter(
    s => ownedEditRefusal(s.owner, t) !== undefined,
  ).length;

  const pick = (name: string) => {
    setPickedName(name);
    setSaveError(undefined);
    setTouched(false);
    owned.reset();
    const secret = items.find(s => s.name === name);
    setDraft(
      secret ? adoptDraftFor(secret, principal?.userEntityRef) : undefined,
    );
  };

  let blocked: string | undefined;
  if (!picked || !draft) blocked = t('platform.adopt.pick');
  else if (!decision) blocked = t('platform.adopt.checking');
  else if (!decision.allowed) blocked = decision.reason;
  else if (errors && hasAdoptErrors(errors))
    blocked = t('platform.adopt.fixFields');
  else if (owned.blocked) blocked = owned.blocked;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    owned.touch();
    if (blocked !== undefined || !picked || !draft || saving) return;
    setSaving(true);
    setSaveError(undefined);
    try {
      const adopted = await api.adoptSecret(
        { cluster, namespace, name: picked.name },
        buildAdoptRequest(picked, draft, owned.request),
      );
      props.onAdopted(adopted);
    } catch (err) {
      // The server's fixed message, or the client's own when no answer arrived.
      setSaveError(failureOf(err).message);
    } finally {
      setSaving(false);
    }
  };

  /** An owned Secret says so in the list, and why Krypton does not adopt it where it does not. */
  const optionLabel = (s: SecretListItem) => {
    const base = { name: s.name, type: s.type };
    if (!s.owner) return t('platform.adopt.option', base);
    const tool = ownerToolName(s.owner, t);
    return ownedEditRefusal(s.owner, t) === undefined
      ? t('platform.adopt.optionOwned', { ...base, tool })
      : t('platform.adopt.optionRefused', { ...base, tool });
  };

  const reload = () => {
    pick('');
    adoptable.retry();
  };

  let body;
  if (adoptable.error) {
    body = <ResponseErrorPanel error={adoptable.error} />;
  } else if (adoptable.loading && !adoptable.value) {
    body = <Progress />;
  } else if (items.length === 0) {
    body = (
      <Typography variant="body2">
        {t('platform.adopt.none', { namespace })}
      </Typography>
    );
  } else {
    body = (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <TextField
          id={`${fieldId}-secret`}
          select
          label={t('platform.adopt.secret')}
          value={pickedName}
          onChange={e => pick(e.target.value)}
          SelectProps={{ native: true }}
          variant="outlined"
          // An owned Secret's option says so at length: the field takes the dialog's width, not
          // its longest option's.
          fullWidth
        >
          <option value="">{t('platform.adopt.choose')}</option>
          {items.map(s => (
            <option key={s.name} value={s.name}>
              {optionLabel(s)}
            </option>
          ))}
        </TextField>
        {refusedCount > 0 && !picked && (
          <Typography variant="body2" color="textSecondary">
            {t('platform.adopt.ownedCount', { count: refusedCount })}
          </Typography>
        )}
        {picked && draft && (
          <Typography variant="body2" color="textSecondary">
            {t('platform.adopt.facts', {
              count: picked.keyCount,
              revision: picked.resourceVersion,
            })}
          </Typography>
        )}
        {picked && <OwnershipBanner secret={picked} />}
        {/* A Secret that Krypton does not adopt whoever asks has no rules to write. */}
        {picked && draft && ownedEditRefusal(picked.owner, t) === undefined && (
          <>
            <TextField
              id={`${fieldId}-description`}
              label={t('platform.adopt.description')}
              value={draft.description}
              onChange={e =>
                setDraft({ ...draft, description: e.target.value })
              }
              error={errors?.description !== undefined}
              helperText={errors?.description}
              multiline
              variant="outlined"
            />
            <AccessFields
              picker
              values={draft.access}
              errors={touched && errors ? errors.access : {}}
              onChange={(role, value) =>
                setDraft({
                  ...draft,
                  access: { ...draft.access, [role]: value },
                })
              }
            />
            <OwnedEditReasonField id={`${fieldId}-reason`} state={owned} />
          </>
        )}
        {saveError && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" onClick={reload}>
                {t('platform.adopt.reloadList')}
              </Button>
            }
          >
            {saveError}
          </Alert>
        )}
      </Box>
    );
  }

  return (
    <Dialog
      open
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <form
        onSubmit={submit}
        noValidate
        aria-label={t('platform.adopt.formLabel')}
      >
        <DialogTitle id={titleId}>
          {t('platform.adopt.title', { namespace })}
        </DialogTitle>
        <DialogContent>{body}</DialogContent>
        <DialogActions>
          {blocked && picked && (
            <Typography variant="body2" color="textSecondary" id={reasonId}>
              {blocked}
            </Typography>
          )}
          <Button onClick={props.onClose}>{t('platform.adopt.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            color="primary"
            disabled={blocked !== undefined || saving}
            aria-describedby={blocked && picked ? reasonId : undefined}
          >
            {saving ? t('platform.adopt.adopting') : t('platform.adopt.adopt')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
