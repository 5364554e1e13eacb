// Benchmarks drive the backend plugin through its own test harness (src/__testUtils__) and report
// figures instead of asserting them; they are never built or published.
module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    'no-restricted-imports': 'off',
    '@backstage/no-mixed-plugin-imports': 'off',
    'jest/expect-expect': 'off',
    '@backstage/no-forbidden-package-imports': 'off',
  },
});
