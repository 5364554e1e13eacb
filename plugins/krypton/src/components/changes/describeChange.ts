import {
  ChangeActor,
  ChangeRequest,
  KryptonError,
  Principal,
  ProposedChange,
  admitBypass,
  admitWithdrawal,
  decide,
} from '@krypton/core';
import { KryptonT } from '../../translation';
import { refsText } from './ApprovalNotice';

/** A request's change in a few words: what the list shows. */
export function changeTitle(change: ProposedChange, t: KryptonT): string {
  switch (change.operation) {
    case 'restore':
      return t('changes.operation.restore', {
        version: String(change.version),
      });
    case 'delete':
      return change.keepHistory
        ? t('changes.operation.deleteKeepHistory')
        : t('changes.operation.delete');
    default:
      return change.values
        ? t('changes.operation.values')
        : t('changes.operation.metadata');
  }
}

/** What an update sets besides values, one line each: the review shows them. */
export function changedFields(change: ProposedChange, t: KryptonT): string[] {
  if (change.operation !== 'update') return [];
  const lines: string[] = [];
  const yesNo = (on: boolean) =>
    on ? t('changes.fields.yes') : t('changes.fields.no');
  if (change.type !== undefined)
    lines.push(t('changes.fields.type', { value: change.type }));
  if (change.immutable !== undefined)
    lines.push(
      t('changes.fields.immutable', { value: yesNo(change.immutable) }),
    );
  if (change.description !== undefined)
    lines.push(
      t('changes.fields.description', {
        value: change.description || t('changes.fields.none'),
      }),
    );
  for (const role of ['owners', 'editors', 'viewers'] as const) {
    const refs = change.access?.[role];
    if (refs !== undefined)
      lines.push(
        t(`changes.fields.${role}`, {
          value: refs.length ? refsText(refs) : t('changes.fields.none'),
        }),
      );
  }
  return lines;
}

/** The decisions that the portal offers the user on a request. */
export interface OfferedDecisions {
  approve: boolean;
  reject: boolean;
  withdraw: boolean;
  bypass: boolean;
}

function admits(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch (e) {
    if (e instanceof KryptonError) return false;
    throw e;
  }
}

/**
 * What the user may decide on a request, by the core's own rules of the backend (which judges
 * every decision again): an approver's approval and rejection, the requester's withdrawal, and a
 * soft policy's bypass. An administrator's withdrawal of someone else's request stays with the
 * API, as the runbook says.
 */
export function offeredDecisions(
  request: ChangeRequest,
  principal: Principal,
  now: Date,
): OfferedDecisions {
  const actor: ChangeActor = {
    ref: principal.userEntityRef,
    ownership: principal.ownershipEntityRefs,
  };
  return {
    approve: admits(() => decide(request, actor, 'approve', now)),
    reject: admits(() => decide(request, actor, 'reject', now)),
    withdraw: admits(() => admitWithdrawal(request, actor, false)),
    bypass: admits(() => admitBypass(request, actor, now)),
  };
}
