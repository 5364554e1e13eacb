/**
 * Krypton's views for any React host: the Backstage plugin and the Headlamp plugin draw a
 * Secret's values with them, each through a ValuesHost of its own classes, texts and controls,
 * and describe a Secret's consuming workloads, its versions' outside changes and the tool that
 * owns it with the same words, and show times by the same rules.
 *
 * @packageDocumentation
 */
export * from './values';
export * from './consumers';
export * from './history';
export * from './owner';
export * from './time';
export { copyToClipboard, useCopyText } from './values/valueRow';
export type { CopyStatus } from './values/valueRow';
export type { MessageKeyOf, WithoutPluralSuffix } from './texts';
