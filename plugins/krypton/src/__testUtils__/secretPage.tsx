import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { SignalApi } from '@backstage/plugin-signals-react';
import { renderInTestApp } from '@backstage/test-utils';
import {
  ChangeRequestSignal,
  SecretChangedSignal,
} from '@krypton/plugin-krypton-common';
import { act } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { KryptonPage } from '../components/KryptonPage';
import { rootRouteRef } from '../routes';
import { ApiOptions, KryptonApis } from './krypton';

type Handler = (message: unknown) => void;

/** The signals plugin's API as a page sees it: messages pushed by the test. */
export class TestSignals implements SignalApi {
  private readonly handlers = new Map<string, Set<Handler>>();

  subscribe: SignalApi['subscribe'] = (channel, onMessage) => {
    const handler = onMessage as unknown as Handler;
    const set = this.handlers.get(channel) ?? new Set();
    set.add(handler);
    this.handlers.set(channel, set);
    return { unsubscribe: () => set.delete(handler) };
  };

  /** The channels that someone is subscribed to now. */
  channels() {
    return [...this.handlers].filter(([, set]) => set.size > 0).map(([c]) => c);
  }

  push(channel: string, message: SecretChangedSignal | ChangeRequestSignal) {
    act(() => this.handlers.get(channel)?.forEach(h => h(message)));
  }
}

/**
 * The platform page at demo/db's detail view (or another address of the page), with the signals
 * plugin and another signed-in user when given.
 */
export function renderSecretPage(
  signals?: SignalApi,
  options: { path?: string; identity?: ApiOptions['identity'] } = {},
) {
  return renderInTestApp(
    <KryptonApis signals={signals} identity={options.identity}>
      <Routes>
        <Route path="/krypton/*" element={<KryptonPage />} />
      </Routes>
    </KryptonApis>,
    {
      routeEntries: [options.path ?? '/krypton/secret/demo/db'],
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}
