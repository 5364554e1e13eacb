module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    // The CLI is a third host beside Backstage and Headlamp: it builds on the core only.
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@backstage/*'],
            message: 'kubectl krypton runs without Backstage.',
          },
        ],
      },
    ],
  },
});
