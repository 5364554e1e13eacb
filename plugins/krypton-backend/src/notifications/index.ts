export { combineNotifiers, createSecretNotifier } from './notifier';
export type { SecretNotifier, SecretNotifierOptions } from './notifier';
export type { SecretChange, SecretChangeEvent } from './payload';
export { admittedRefs } from './audience';
