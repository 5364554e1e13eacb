module.exports = {
  overrides: [
    {
      // The host page is made of Headlamp's own modules, and React, MUI, Redux, react-query,
      // notistack and Iconify as they use them: all installed with @kinvolk/headlamp-plugin,
      // as for the plugin's UI (../.eslintrc.js).
      files: ['main.tsx', 'vite.config.mjs', 'build.mjs'],
      rules: { '@backstage/no-undeclared-imports': 'off' },
    },
  ],
};
