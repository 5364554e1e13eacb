import { ChangeRequest, messages } from '@krypton/core';
import { ChangeRequestedError } from './KryptonClient';
import { responseError } from './responseError';
import { failureOf } from './failure';

const answer = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

describe('failureOf', () => {
  it("classifies a backend answer by its status and the spec's fixed text", async () => {
    const stale = await responseError(answer(409, messages.staleRevision));
    expect(failureOf(stale)).toEqual({
      kind: 'staleRevision',
      status: 409,
      message: messages.staleRevision,
    });
    const review = await responseError(answer(409, messages.sourceConflict));
    expect(failureOf(review).kind).toBe('conflict');
    const gone = await responseError(answer(404, messages.notFound));
    expect(failureOf(gone).kind).toBe('notFound');
  });

  it('calls a failure without an answer a network failure', () => {
    expect(failureOf(new TypeError('Failed to fetch'))).toEqual({
      kind: 'network',
      message: 'Failed to fetch',
    });
  });

  it('reads a write that became a change request as a certain refusal with its message', () => {
    const error = new ChangeRequestedError({
      id: '0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f',
      policy: { requiredApprovals: 1 },
    } as ChangeRequest);
    expect(failureOf(error)).toEqual({
      kind: 'other',
      status: 202,
      message: error.message,
    });
  });
});
