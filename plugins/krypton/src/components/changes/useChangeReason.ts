import { SecretApproval } from '@krypton/core';
import { useState } from 'react';
import { ChangeReasonField } from '../../api/KryptonApi';

/** The backend's limit on the reason a change request carries. */
export const CHANGE_REASON_MAX = 1000;

/** Why the user asks for a change, where the Secret's changes need approval. */
export interface ChangeReasonState {
  /** The Secret's approval policy; undefined where changes are written at once. */
  approval?: SecretApproval;
  value: string;
  onChange: (value: string) => void;
  /** What a write carries: the reason, trimmed, only where a request is made and one was given. */
  request: ChangeReasonField;
}

/**
 * The reason of an update, restore or delete of a Secret whose changes need approval (optional:
 * the approvers read it); nothing for any other Secret.
 */
export function useChangeReason(
  approval: SecretApproval | undefined,
): ChangeReasonState {
  const [value, setValue] = useState('');
  const trimmed = value.trim();
  return {
    approval,
    value,
    onChange: setValue,
    request: approval && trimmed ? { changeReason: trimmed } : {},
  };
}
