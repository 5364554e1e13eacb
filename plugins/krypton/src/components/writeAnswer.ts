import {
  RedactedSecret,
  SecretDto,
  SecretSummary,
  SecretWriteAnswer,
  hasValues,
} from '@krypton/core';

/**
 * Every field of SecretSummary but the policy's answers, the sizes and the approval policy, which
 * only the summary route gives (see useSecretSummary). Keyed by the interface, so the compiler flags a field added
 * to or removed from it: summaryOf copies by this list rather than by omitting known value
 * fields, so a value field that some answer carries can never slip through.
 */
const SUMMARY_FIELDS: Record<
  Exclude<keyof SecretSummary, 'policy' | 'keySizes' | 'approval'>,
  true
> = {
  cluster: true,
  namespace: true,
  name: true,
  uid: true,
  resourceVersion: true,
  type: true,
  immutable: true,
  managed: true,
  version: true,
  description: true,
  access: true,
  keys: true,
  binaryKeys: true,
  creationTimestamp: true,
  deletionTimestamp: true,
  labels: true,
  annotations: true,
  withheldAnnotations: true,
  ownerReferences: true,
  lastChange: true,
  owner: true,
  dataAppliedBy: true,
};
const SUMMARY_KEYS = Object.keys(SUMMARY_FIELDS) as Array<keyof SecretSummary>;

function copyField<K extends keyof SecretSummary>(
  from: SecretSummary,
  to: Partial<SecretSummary>,
  key: K,
) {
  if (from[key] !== undefined) to[key] = from[key];
}

/** The metadata of a Secret or write answer, as a new object that holds no values. */
export function summaryOf(secret: SecretSummary): SecretSummary {
  const out: Partial<SecretSummary> = {};
  for (const key of SUMMARY_KEYS) copyField(secret, out, key);
  // Every required field is a required field of the input, so each one was copied.
  return out as SecretSummary;
}

/** The metadata of a Secret, marked as carrying no values. */
export function withoutValues(secret: SecretSummary): RedactedSecret {
  return { ...summaryOf(secret), valuesOmitted: true };
}

/** Whether a write answer really carries both value maps; a malformed one counts as redacted. */
export function carriesValues(answer: SecretWriteAnswer): answer is SecretDto {
  return (
    hasValues(answer) &&
    typeof answer.data === 'object' &&
    answer.data !== null &&
    typeof answer.binaryData === 'object' &&
    answer.binaryData !== null
  );
}

/**
 * A write answer as the frontend may keep it. The backend omits the values for a caller who may
 * not reveal them; values that arrive anyway for a user whose decisions deny reveal (an older
 * backend, a policy or rules that changed) are dropped here too, before anything holds them.
 */
export function keptAnswer(
  answer: SecretWriteAnswer,
  mayReveal: boolean,
): SecretWriteAnswer {
  return mayReveal && carriesValues(answer) ? answer : withoutValues(answer);
}
