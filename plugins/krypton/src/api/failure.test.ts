import { messages } from '@krypton/core';
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
});
