/**
 * Krypton's shared module: API contract, permissions, rules and Kubernetes mutation logic.
 * The root entry is isomorphic: the frontend imports it too, so nothing here may import Node-only
 * modules.
 *
 * @packageDocumentation
 */
export * from './permissions';
export * from './limits';
export * from './errors';
export * from './dto';
export * from './encoding';
export * from './annotations';
export * from './access';
export * from './settings';
export * from './size';
export * from './validation';
export * from './labelSelector';
export * from './labelMatch';
export * from './entityLinks';
export * from './entityRefs';
export * from './keyDiff';
export * from './lineDiff';
export * from './secretTraits';
export * from './versionSides';
export * from './retention';
export * from './restoreBlock';
export * from './restartOutcome';
export * from './signals';
export * from './pool';
