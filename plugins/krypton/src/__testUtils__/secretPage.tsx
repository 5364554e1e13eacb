import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { SignalApi } from '@backstage/plugin-signals-react';
import { renderInTestApp } from '@backstage/test-utils';
import { SecretChangedSignal } from '@krypton/plugin-krypton-common';
import { act } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { KryptonPage } from '../components/KryptonPage';
import { rootRouteRef } from '../routes';
import { KryptonApis } from './krypton';

type Handler = (message: SecretChangedSignal) => void;

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

  push(channel: string, message: SecretChangedSignal) {
    act(() => this.handlers.get(channel)?.forEach(h => h(message)));
  }
}

/** The platform page at demo/db's detail view, with the signals plugin when given. */
export function renderSecretPage(signals?: SignalApi) {
  return renderInTestApp(
    <KryptonApis signals={signals}>
      <Routes>
        <Route path="/krypton/*" element={<KryptonPage />} />
      </Routes>
    </KryptonApis>,
    {
      routeEntries: ['/krypton/secret/demo/db'],
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}
