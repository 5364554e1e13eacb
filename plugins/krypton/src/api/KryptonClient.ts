import { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { KryptonApi, KryptonHealth } from './KryptonApi';
import { responseError } from './responseError';

/** KryptonApi over the backend plugin's HTTP routes, with the signed-in user's credentials. */
export class KryptonClient implements KryptonApi {
  constructor(
    private readonly deps: { discoveryApi: DiscoveryApi; fetchApi: FetchApi },
  ) {}

  async getHealth(): Promise<KryptonHealth> {
    const base = await this.deps.discoveryApi.getBaseUrl('krypton');
    const res = await this.deps.fetchApi.fetch(`${base}/health`);
    if (!res.ok) throw await responseError(res);
    return (await res.json()) as KryptonHealth;
  }
}
