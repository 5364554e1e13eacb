import { InfoCard } from '@backstage/core-components';
import {
  SecretApproval,
  SecretSummary,
  SecretWriteAnswer,
} from '@krypton/core';
import Button from '@material-ui/core/Button';
import { ReactNode } from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { ActionDecisions } from '../access/decide';
import { SecretForm, SecretFormScope } from '../edit';

/** What a tab with an edit form tells the page (see SecretForm for the form's own events). */
export interface EditTabEvents {
  onEdit: (editing: boolean) => void;
  /** Whether the open form's draft holds changes. */
  onDirtyChange?: (dirty: boolean) => void;
  /** The live Secret the form's Reload latest loaded. */
  onReloaded?: (live: SecretWriteAnswer) => void;
  onSaved: (secret: SecretWriteAnswer) => void;
}

/**
 * One Secret's edit form in a card with Cancel editing. A fresh form (and draft) per Secret,
 * pinned to the revision it starts from; without `initial` the form loads the Secret itself.
 */
export function EditSecretCard(
  props: EditTabEvents & {
    title: string;
    location: SecretLocation;
    secret: SecretSummary;
    initial?: SecretWriteAnswer;
    /** What the form edits: everything (the default), or the description and the rules only. */
    scope?: SecretFormScope;
    decisions: ActionDecisions;
    /** The live Secret's approval policy, from its summary: a save then asks for approval. */
    approval?: SecretApproval;
    /** Notices above the form. */
    children?: ReactNode;
  },
) {
  const { secret, decisions } = props;
  const t = useKryptonT();
  return (
    <InfoCard
      title={props.title}
      action={
        <Button onClick={() => props.onEdit(false)}>
          {t('detail.cancelEditing')}
        </Button>
      }
    >
      {props.children}
      <SecretForm
        key={`${secret.cluster}/${secret.namespace}/${secret.name}`}
        mode="edit"
        location={props.location}
        initial={props.initial}
        scope={props.scope}
        canEditAccess={decisions.manageAccess.allowed}
        // An owner who may not reveal the values still edits the rules: the form then loads the
        // metadata only and never sends data.
        keepValues={decisions.reveal.allowed}
        approval={props.approval}
        onDirtyChange={props.onDirtyChange}
        onReloaded={props.onReloaded}
        onSaved={props.onSaved}
      />
    </InfoCard>
  );
}
