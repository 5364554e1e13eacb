import {
  KubeRestRequest,
  METADATA_ACCEPT,
  RestKubeGateway,
} from './restGateway';
import { KubeApiError, SECRETS } from './types';

const PRECONDITIONS = { metadata: { uid: 'u1', resourceVersion: '7' } };

/** A gateway whose one answer is this body, recording the request it sent. */
function gatewayAnswering(body: unknown) {
  const sent: KubeRestRequest[] = [];
  const gateway = new RestKubeGateway(async request => {
    sent.push(request);
    return { status: 200, body, bytes: 321 };
  });
  return { gateway, sent };
}

describe('RestKubeGateway.mergePatch', () => {
  it('asks for the answer as metadata only, and reads its revision', async () => {
    const { gateway, sent } = gatewayAnswering({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { name: 'db', uid: 'u1', resourceVersion: '8' },
    });
    const after = await gateway.mergePatch(SECRETS, 'ns', 'db', PRECONDITIONS);
    expect(after.metadata.resourceVersion).toBe('8');
    expect(sent).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: '/api/v1/namespaces/ns/secrets/db',
        contentType: 'application/merge-patch+json',
        accept: METADATA_ACCEPT,
        body: PRECONDITIONS,
      }),
    ]);
  });

  it('refuses a full Secret in answer, as from a proxy that drops the Accept header', async () => {
    const { gateway } = gatewayAnswering({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', uid: 'u1', resourceVersion: '8' },
      data: { password: 'c2VjcmV0' },
    });
    const err = await gateway
      .mergePatch(SECRETS, 'ns', 'db', PRECONDITIONS)
      .then(
        () => undefined,
        e => e,
      );
    expect(err).toBeInstanceOf(KubeApiError);
    expect(err).toMatchObject({ status: 0, reason: 'MalformedResponse' });
  });
});
