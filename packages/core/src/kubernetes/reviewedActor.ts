import { KubeRestSend } from './restGateway';

/** Longer usernames, or ones with control characters, are not recorded. */
const MAX_USERNAME_UNITS = 256;

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x7f) return true;
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The user's Kubernetes username as the API server authenticated it: a SelfSubjectReview
 * (authentication.k8s.io/v1, served since Kubernetes 1.28 to every authenticated user). Undefined
 * when the API server does not answer one, or answers a name not fit for an annotation.
 *
 * @public
 */
export async function reviewedUsername(
  send: KubeRestSend,
): Promise<string | undefined> {
  let answer;
  try {
    answer = await send({
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
      },
      maxResponseBytes: 64 * 1024,
      resource: 'selfsubjectreviews',
    });
  } catch {
    return undefined;
  }
  if (answer.status < 200 || answer.status > 299) return undefined;
  const { body } = answer;
  const userInfo =
    isRecord(body) && isRecord(body.status) ? body.status.userInfo : undefined;
  const username = isRecord(userInfo) ? userInfo.username : undefined;
  if (
    typeof username !== 'string' ||
    username === '' ||
    username.length > MAX_USERNAME_UNITS ||
    hasControlCharacter(username)
  )
    return undefined;
  return username;
}

/**
 * snapshot-by for a host that acts with the user's own Kubernetes credentials (Headlamp, the
 * terminal): `<host>:<username>`, with the username the API server reports for those
 * credentials, asked once; `<host>` alone while it cannot be learned, asked again at the next
 * save. Like everything a user's own client writes, it is a record, not a proof: the API server's
 * audit log is that.
 *
 * @public
 */
export function reviewedActor(
  host: string,
  send: KubeRestSend,
): () => Promise<string> {
  let username: string | undefined;
  return async () => {
    username ??= await reviewedUsername(send);
    return username === undefined ? host : `${host}:${username}`;
  };
}
