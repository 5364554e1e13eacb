module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    // The core is what every host builds on, Headlamp in the browser included: no Backstage
    // package, and no Node-only module.
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['@backstage/*'], message: 'The core is host-neutral.' },
          { group: ['node:*'], message: 'The core runs in browsers too.' },
        ],
      },
    ],
  },
});
