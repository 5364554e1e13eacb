/**
 * The query parameters that Krypton's requests carry. Headlamp's clusterRequest writes them with
 * URLSearchParams, so values need no encoding here.
 */
export type KubeQuery = Record<string, string>;

/** The options of Headlamp's clusterRequest that the gateway sets on every call. */
export interface ClusterRequestParams {
  /** Headlamp's cluster name: the request goes to `/clusters/<cluster><path>` on its server. */
  cluster: string;
  method: string;
  /** false: a success answers with the fetch Response itself, so its bytes can be counted. */
  isJSON: false;
  /** false: a 401 or 403 is Krypton's to report, not a reason to log the user out. */
  autoLogoutOnAuthError: false;
  /** Milliseconds until Headlamp aborts the fetch and answers a synthetic 408. */
  timeout: number;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The shape of `ApiProxy.clusterRequest` from `@kinvolk/headlamp-plugin/lib` (0.14.0), as the
 * gateway calls it. With `isJSON: false` it resolves with the Response of a 2xx answer. Any other
 * status rejects with an Error carrying only `status`: Headlamp has already read the body, so the
 * metav1.Status reason is lost. A fetch that timed out rejects as status 408, and one that failed
 * as status 502 (statusText "Unreachable").
 */
export type ClusterRequest = (
  path: string,
  params: ClusterRequestParams,
  query?: KubeQuery,
) => Promise<unknown>;
