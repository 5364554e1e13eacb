import { createApiRef } from '@backstage/core-plugin-api';

export interface KryptonHealth {
  status: 'ok';
}

/** Krypton's backend API, as the frontend sees it. */
export interface KryptonApi {
  getHealth(): Promise<KryptonHealth>;
}

export const kryptonApiRef = createApiRef<KryptonApi>({
  id: 'plugin.krypton.api',
});
