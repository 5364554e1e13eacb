/**
 * Krypton backend plugin: versioned Kubernetes Secrets for Backstage.
 *
 * @packageDocumentation
 */
export { kryptonPlugin as default } from './plugin';
