/**
 * Krypton's value views for any React host: the Backstage plugin and the Headlamp plugin draw a
 * Secret's values with them, each through a ValuesHost of its own classes, texts and controls.
 *
 * @packageDocumentation
 */
export * from './values';
