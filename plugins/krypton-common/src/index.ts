/**
 * Krypton's shared module: API contract, permissions, rules and Kubernetes mutation logic.
 * The root entry is isomorphic: the frontend imports it too, so nothing here may import Node-only
 * modules.
 *
 * @packageDocumentation
 */
export * from './permissions';
