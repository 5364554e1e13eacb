import {
  ConsumedResponse,
  ErrorResponseBody,
  ResponseError,
} from '@backstage/errors';

/** The name Backstage's error displays show for the cause of a Krypton error. */
const ERROR_NAME = 'KryptonError';

function isJson(res: Response): boolean {
  return (
    res.headers.get('content-type')?.startsWith('application/json') ?? false
  );
}

/** The message of Krypton's `{ "error": "<message>" }` envelope, or undefined for any other body. */
function envelopeMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return undefined;
  }
  const error: unknown = (body as Record<string, unknown>).error;
  // An empty message says nothing; the generic "Request failed with <status>" says more.
  return typeof error === 'string' && error.length > 0 ? error : undefined;
}

/**
 * Turns a non-2xx answer of Krypton's backend into a ResponseError, consuming the body.
 *
 * The backend answers with `{ "error": "<fixed message>" }`, which is not Backstage's
 * ErrorResponseBody, so ResponseError.fromResponse alone would only say "Request failed with 503".
 * The envelope's message becomes the error's message, and the body is rewritten into Backstage's
 * shape so that Backstage's error displays show the same text. Any other body (a proxy's HTML
 * page, Backstage's own error shape) gets ResponseError.fromResponse unchanged.
 */
export async function responseError(res: Response): Promise<ResponseError> {
  let message: string | undefined;
  if (isJson(res)) {
    // Read a copy, so the fallback can hand the untouched response to fromResponse.
    const text = await res
      .clone()
      .text()
      .catch(() => '');
    message = envelopeMessage(text);
  }
  if (message === undefined) return ResponseError.fromResponse(res);

  const body: ErrorResponseBody = {
    error: { name: ERROR_NAME, message },
    response: { statusCode: res.status },
  };
  // ResponseError's constructor is private, so fromResponse is the only way to build one; it is
  // given the real status, headers and URL with the rewritten body.
  const consumed: ConsumedResponse & { text(): Promise<string> } = {
    headers: res.headers,
    ok: res.ok,
    redirected: res.redirected,
    status: res.status,
    statusText: res.statusText,
    type: res.type,
    url: res.url,
    text: async () => JSON.stringify(body),
  };
  const error = await ResponseError.fromResponse(consumed);
  const generic = error.message;
  error.message = message;
  // The stack's first line was rendered from the generic message; a function replacement keeps
  // "$" sequences in the message literal.
  error.stack = error.stack?.replace(generic, () => message);
  return error;
}
