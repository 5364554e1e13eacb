module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  restrictedSrcImports: [
    {
      // The root entry brings Backstage's permission client (and cross-fetch), which the plugin
      // build cannot resolve and Headlamp has no use for.
      name: '@krypton/plugin-krypton-common',
      message:
        "Import from '@krypton/plugin-krypton-common/engine', which the plugin bundles.",
    },
  ],
  overrides: [
    {
      // Tests run in Node, against the control plane of @krypton/kube-testenv (a node-library);
      // the stand-in for Headlamp's server is a Node HTTP server.
      files: ['src/**/*.test.ts', 'src/__testUtils__/**'],
      rules: {
        'no-restricted-imports': 'off',
        '@backstage/no-mixed-plugin-imports': 'off',
      },
    },
  ],
});
