module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  restrictedSrcImports: [
    {
      // Backstage's permissions and catalog links, which Headlamp has no use for (and whose
      // permission client the plugin build cannot resolve). The plugin builds on the core only.
      name: '@krypton/plugin-krypton-common',
      message: "Import from '@krypton/core'.",
    },
  ],
  overrides: [
    {
      // Tests run in Node, against the control plane of @krypton/kube-testenv (a node-library);
      // the stand-in for Headlamp's server is a Node HTTP server.
      // The component tests (*.vitest.tsx) run in Vitest's jsdom, with their own test utilities.
      files: [
        'src/**/*.test.ts',
        'src/**/*.vitest.tsx',
        'src/__testUtils__/**',
      ],
      rules: {
        'no-restricted-imports': 'off',
        '@backstage/no-mixed-plugin-imports': 'off',
      },
    },
    {
      // The UI: React, MUI v5 and Headlamp's lib are Headlamp's own at run time (the build maps
      // them to window.pluginLib, so they are never bundled). They are installed with
      // @kinvolk/headlamp-plugin, which Headlamp's plugin loader requires in devDependencies,
      // and the component tests use its Vitest and Testing Library the same way.
      files: [
        'vitest.config.mjs',
        'src/**/*.tsx',
        'src/useLoad.ts',
        'src/history/**',
        'src/consumers/**',
        'src/__testUtils__/**',
      ],
      rules: {
        '@backstage/no-undeclared-imports': 'off',
      },
    },
    {
      // Every word the UI draws comes from src/messages.ts.
      files: ['src/**/*.tsx'],
      excludedFiles: ['**/*.vitest.tsx', '**/__testUtils__/**'],
      rules: {
        'react/jsx-no-literals': ['error', { noStrings: false }],
      },
    },
  ],
});
