import { KubeApiError, KubeRestRequest, KubeRestResponse } from '@krypton/core';
import { HEADLAMP_ACTOR, headlampActor, reviewedUsername } from './actor';

function answering(...answers: Array<KubeRestResponse | Error>) {
  const seen: KubeRestRequest[] = [];
  const send = async (request: KubeRestRequest) => {
    seen.push(request);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { send, seen };
}

const review = (username: unknown, status = 201): KubeRestResponse => ({
  status,
  body: {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    status: { userInfo: { username, groups: ['system:authenticated'] } },
  },
  bytes: 200,
});

describe('headlampActor', () => {
  it('records the username of a SelfSubjectReview, asked once per connection', async () => {
    const { send, seen } = answering(review('alice@example.com'));
    const actor = headlampActor(send);
    await expect(actor()).resolves.toBe('headlamp:alice@example.com');
    await expect(actor()).resolves.toBe('headlamp:alice@example.com');
    expect(seen).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'SelfSubjectReview',
        },
      }),
    ]);
  });

  it('records headlamp alone while the API server does not say, and asks again', async () => {
    const { send, seen } = answering(
      new KubeApiError(404, 'NotFound'),
      review('bob'),
    );
    const actor = headlampActor(send);
    await expect(actor()).resolves.toBe(HEADLAMP_ACTOR);
    await expect(actor()).resolves.toBe('headlamp:bob');
    expect(seen).toHaveLength(2);
  });

  it('records no name that does not fit an annotation or that is not a name', async () => {
    for (const answer of [
      review('x'.repeat(257)),
      review('eve\nsnapshot-by: admin'),
      review(''),
      review(42),
      review('alice', 403),
      { status: 201, body: undefined, bytes: 0 },
      { status: 201, body: { status: { userInfo: 'alice' } }, bytes: 40 },
    ]) {
      await expect(reviewedUsername(answering(answer).send)).resolves.toBe(
        undefined,
      );
    }
    await expect(
      reviewedUsername(answering(new KubeApiError(0, 'Timeout')).send),
    ).resolves.toBe(undefined);
    await expect(
      reviewedUsername(answering(review('x'.repeat(256))).send),
    ).resolves.toBe('x'.repeat(256));
  });
});
