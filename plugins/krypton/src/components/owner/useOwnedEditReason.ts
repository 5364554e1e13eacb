import {
  OwnedEditReason,
  SecretOwner,
  ownedEditReasonProblem,
} from '@krypton/core';
import {
  describeReasonProblem,
  ownedEditRefusal,
  ownedEditsOf,
  ownerToolName,
} from '@krypton/plugin-krypton-react';
import { useState } from 'react';
import { useKryptonT } from '../../translation';

/** A change's reason where the Secret's owner asks for one, and why the change cannot go yet. */
export interface OwnedEditReasonState {
  /** Whether the change needs the user's reason: the owner's rule is `reason-required`. */
  required: boolean;
  /** The owning tool's name, for the field's help. */
  tool?: string;
  value: string;
  onChange: (value: string) => void;
  /** Shows the field's error before the user typed (after a try to send). */
  touch: () => void;
  /** Empties the field, for a change of another Secret. */
  reset: () => void;
  /** The field's error, once the user typed or tried to send. */
  error?: string;
  /** Why the change cannot be sent: Krypton refuses it, or the reason is missing or invalid. */
  blocked?: string;
  /** What a request carries: the reason, trimmed, only where the owner asks for one. */
  request: OwnedEditReason;
}

/**
 * The reason for an update, restore, adopt or delete of a Secret by its owner's rule: asked for
 * where the installation allows changes with a reason, refused where it does not, and nothing
 * for a Secret that no tool owns or whose owner is set to leave it.
 */
export function useOwnedEditReason(
  owner: SecretOwner | undefined,
): OwnedEditReasonState {
  const t = useKryptonT();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const required =
    owner !== undefined && ownedEditsOf(owner) === 'reason-required';
  const refusal = ownedEditRefusal(owner, t);
  const problem = required ? ownedEditReasonProblem(value) : undefined;
  const worded = problem && describeReasonProblem(problem, t);
  return {
    required,
    tool: owner && ownerToolName(owner, t),
    value,
    onChange: next => {
      setValue(next);
      setTouched(true);
    },
    touch: () => setTouched(true),
    reset: () => {
      setValue('');
      setTouched(false);
    },
    error: touched ? worded : undefined,
    blocked: refusal ?? worded,
    // Sent only where the owner asks for one: the audit keeps what it was asked for.
    request: required && !problem ? { ownedEditReason: value.trim() } : {},
  };
}
