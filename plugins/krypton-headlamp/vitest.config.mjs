// The plugin's component tests: Headlamp's own Vitest configuration (jsdom, React, its setup
// file), narrowed to `*.vitest.tsx`. The package's `*.test.ts` files are backstage-cli's Jest
// project (the gateway units and the integration tests against the local kube-apiserver).
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import headlamp from './node_modules/@kinvolk/headlamp-plugin/config/vite.config.mjs';

export default mergeConfig(
  headlamp,
  defineConfig({
    resolve: {
      // The shared value views (@krypton/plugin-krypton-react) sit outside this workspace and
      // would find the repository's React next to them; Headlamp shares one React with plugins.
      dedupe: ['react', 'react-dom'],
      alias: [
        {
          // Headlamp's components that the plugin uses, from their own modules (see the file).
          find: /^@kinvolk\/headlamp-plugin\/lib\/CommonComponents$/,
          replacement: fileURLToPath(
            new URL('./src/__testUtils__/commonComponents.ts', import.meta.url),
          ),
        },
      ],
    },
    test: {
      include: ['src/**/*.vitest.tsx'],
    },
  }),
);
