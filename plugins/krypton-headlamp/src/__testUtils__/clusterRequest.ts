import { ClusterRequest } from '../gateway/clusterRequest';

/**
 * Headlamp's `ApiProxy.clusterRequest` (`@kinvolk/headlamp-plugin` 0.14.0,
 * lib/lib/k8s/api/v1/clusterRequests.js) for tests, reduced to what it does for the gateway's
 * calls (`isJSON: false`, `autoLogoutOnAuthError: false`, a cluster named): it fetches
 * `<server>/clusters/<cluster><path>?<query>`, aborts at `timeout` and then answers 408, turns a
 * failed fetch into 502 "Unreachable", resolves with the Response of a 2xx answer, and rejects
 * any other status with an Error that carries only `status`, after reading the body. Headlamp's
 * token cookie, stateless-cluster KUBECONFIG header and logout are not reproduced: the stand-in
 * server holds the user's token.
 */
export function clusterRequestOn(server: string): ClusterRequest {
  return async (path, params, query) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), params.timeout);
    const url = `${server}/clusters/${params.cluster}/${path.replace(
      /^\//,
      '',
    )}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
    let response = new Response(undefined, {
      status: 502,
      statusText: 'Unreachable',
    });
    try {
      response = await fetch(url, {
        method: params.method,
        headers: params.headers,
        body: params.body,
        signal: controller.signal,
      });
    } catch (err) {
      if (err instanceof Error && err.name === 'AbortError') {
        response = new Response(undefined, {
          status: 408,
          statusText: 'Request timed-out',
        });
      }
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const error = new Error(`${response.statusText} - ${text}`);
      Object.assign(error, { status: response.status });
      throw error;
    }
    return response;
  };
}
