import { classifyFailure, messages } from './errors';

describe('classifyFailure', () => {
  it('tells a stale revision apart from the 409s an operator must review', () => {
    expect(classifyFailure(409, messages.staleRevision)).toBe('staleRevision');
    expect(classifyFailure(409, messages.sourceConflict)).toBe('conflict');
    expect(classifyFailure(409, messages.counterBehindHistory)).toBe(
      'conflict',
    );
  });

  it('never reads the message of any other status', () => {
    // The stale text on another status is not a stale revision: the status decides first.
    expect(classifyFailure(400, messages.staleRevision)).toBe('invalid');
    expect(classifyFailure(404, messages.staleRevision)).toBe('notFound');
  });

  it.each([
    [401, 'unauthenticated'],
    [403, 'forbidden'],
    [413, 'tooLarge'],
    [422, 'unprocessable'],
    [429, 'rateLimited'],
    [503, 'unavailable'],
    [500, 'server'],
    [502, 'server'],
    [504, 'server'],
    [418, 'other'],
  ])('classifies %i as %s', (status, kind) => {
    expect(classifyFailure(status, 'x')).toBe(kind);
  });
});
