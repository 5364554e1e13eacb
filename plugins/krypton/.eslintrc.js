module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Every word the UI draws comes from kryptonTranslationRef; a literal text child would
      // stay English in a translated app.
      files: ['src/components/**/*.tsx'],
      excludedFiles: ['**/*.test.tsx', '**/__testUtils__/**'],
      rules: {
        // A dash for "none" is a symbol, not a word.
        'react/jsx-no-literals': [
          'error',
          { noStrings: false, allowedStrings: ['—'] },
        ],
      },
    },
  ],
});
