import {
  RESTART_STATUS_SEVERITY,
  restartOutcomeOf,
  workloadLabel,
} from './restartOutcome';

describe('restartOutcomeOf', () => {
  it('reads an acknowledged patch as requested', () => {
    expect(restartOutcomeOf(undefined)).toBe('requested');
  });

  it('reads an incomplete listed identity as skipped: it was never patched', () => {
    expect(restartOutcomeOf({ code: 'incomplete_list' })).toBe('skipped');
  });

  it('reads an RBAC refusal as forbidden', () => {
    expect(restartOutcomeOf({ code: 'forbidden' })).toBe('forbidden');
  });

  it('reads every other code as failed', () => {
    for (const code of [
      'unauthenticated',
      'not_found',
      'conflict',
      'invalid_request',
      'rate_limited',
      'unavailable',
      'unconfirmed',
    ] as const)
      expect(restartOutcomeOf({ code })).toBe('failed');
  });
});

describe('restart status severity and labels', () => {
  it('never shows a requested restart as a success', () => {
    expect(RESTART_STATUS_SEVERITY).toEqual({
      requested: 'info',
      no_targets: 'info',
      partial: 'warning',
      failed: 'error',
    });
  });

  it('names a workload Kind/name', () => {
    expect(workloadLabel({ kind: 'StatefulSet', name: 'worker' })).toBe(
      'StatefulSet/worker',
    );
  });
});
