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
