import { createDevApp } from '@backstage/dev-utils';
import { kryptonPlugin, KryptonPage } from '../src/plugin';

// Serves the plugin on its own against a running backend: yarn workspace @krypton/plugin-krypton start
createDevApp()
  .registerPlugin(kryptonPlugin)
  .addPage({ element: <KryptonPage />, title: 'Krypton', path: '/krypton' })
  .render();
