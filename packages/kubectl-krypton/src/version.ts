/** The package's version, for --version and the User-Agent; a test holds it to package.json. */
export const VERSION = '0.1.0';
