module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    // The recorder is a process of its own, beside Backstage: it builds on the core only.
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@backstage/*'],
            message: 'The recorder runs without Backstage.',
          },
        ],
      },
    ],
  },
});
