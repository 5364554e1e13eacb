/**
 * The scaffolder backend module of Krypton: the `krypton:secret:create` action, which creates a
 * managed Kubernetes Secret through Krypton with the identity of the user who runs the template.
 *
 * @packageDocumentation
 */
export { scaffolderModuleKrypton as default } from './module';
export { createKryptonSecretCreateAction } from './actions/createSecret';
export type { KryptonSecretCreateActionOptions } from './actions/createSecret';
