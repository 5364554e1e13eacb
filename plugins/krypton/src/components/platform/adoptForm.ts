import {
  AccessRules,
  AdoptSecretRequest,
  OwnedEditReason,
  SecretMetadataView,
  tryNormalizeEntityRef,
  MAX_ACCESS_REFS,
  MAX_DESCRIPTION_LENGTH,
} from '@krypton/core';
import { KryptonT } from '../../translation';
import {
  ACCESS_RULE_LISTS,
  AccessRuleList,
  formatRefs,
  splitRefs,
} from '../edit/draft';

export interface AdoptDraft {
  description: string;
  access: Record<AccessRuleList, string>;
}

export interface AdoptErrors {
  description?: string;
  access: Partial<Record<AccessRuleList, string>>;
}

/**
 * The form's start for a picked Secret: its own description and rules. A Secret without owners
 * gets the adopting user as owner, so that someone may manage it afterwards; the user sees and may
 * change this before adopting.
 */
export function adoptDraftFor(
  secret: SecretMetadataView,
  userEntityRef: string | undefined,
): AdoptDraft {
  const owners =
    secret.access.owners.length === 0 && userEntityRef
      ? [userEntityRef]
      : secret.access.owners;
  return {
    description: secret.description ?? '',
    access: {
      owners: formatRefs(owners),
      editors: formatRefs(secret.access.editors),
      viewers: formatRefs(secret.access.viewers),
    },
  };
}

/** Worded as the create and edit forms word the same rules. */
export function validateAdoptDraft(
  draft: AdoptDraft,
  t: KryptonT,
): AdoptErrors {
  const errors: AdoptErrors = { access: {} };
  if (draft.description.length > MAX_DESCRIPTION_LENGTH) {
    errors.description = t('edit.validation.descriptionTooLong', {
      max: String(MAX_DESCRIPTION_LENGTH),
    });
  }
  for (const role of ACCESS_RULE_LISTS) {
    const refs = splitRefs(draft.access[role]);
    const bad = refs.find(ref => tryNormalizeEntityRef(ref) === undefined);
    if (bad !== undefined) {
      errors.access[role] = t('edit.validation.notARef', {
        ref: bad.slice(0, 64),
      });
    } else if (refs.length > MAX_ACCESS_REFS) {
      errors.access[role] = t('edit.validation.tooManyRefs', {
        max: String(MAX_ACCESS_REFS),
      });
    }
  }
  return errors;
}

export const hasAdoptErrors = (errors: AdoptErrors) =>
  errors.description !== undefined || Object.keys(errors.access).length > 0;

/**
 * The adopt body: the revision the picker listed, so that a Secret changed since is refused with
 * 409 rather than adopted unseen, the complete rules and description as the form shows them, and
 * the reason where the Secret's owner asks for one.
 */
export function buildAdoptRequest(
  secret: SecretMetadataView,
  draft: AdoptDraft,
  owned: OwnedEditReason = {},
): AdoptSecretRequest {
  const access = {} as AccessRules;
  for (const role of ACCESS_RULE_LISTS) {
    access[role] = [
      ...new Set(
        splitRefs(draft.access[role]).map(
          ref => tryNormalizeEntityRef(ref) ?? ref,
        ),
      ),
    ];
  }
  return {
    resourceVersion: secret.resourceVersion,
    description: draft.description,
    access,
    ...owned,
  };
}
