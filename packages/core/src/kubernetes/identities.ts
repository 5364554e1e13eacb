import { IdentityMode } from '../dto';
import { KubeGateway } from './types';

/**
 * The two identities a request can act as.
 *
 * @public
 */
export interface RequestGateways {
  /**
   * The signed-in user's: impersonated in impersonation and hybrid modes, Krypton's own in
   * serviceAccount mode (where Krypton's ACLs and Backstage permissions are the only gates).
   */
  user: KubeGateway;
  /** Krypton's own ServiceAccount, never impersonating. */
  krypton: KubeGateway;
}

/**
 * Which identity each kind of Kubernetes call of an engine uses.
 *
 * @public
 */
export interface EngineGateways {
  /** Reads and writes of the live Secret: always as the user, where the mode has one. */
  live: KubeGateway;
  /**
   * History snapshots, workload inventories and patches. In hybrid mode these run as Krypton,
   * and only after the live checks passed as the user; in impersonation mode, as the user.
   */
  archive: KubeGateway;
  /**
   * Whether archive acts as another identity than live (hybrid mode). The user's live write is
   * then proven with a dry run before Krypton's identity changes anything.
   */
  proveLiveWrites: boolean;
}

/** @public */
export function engineGateways(
  mode: IdentityMode,
  gateways: RequestGateways,
): EngineGateways {
  return {
    live: gateways.user,
    archive: mode === 'hybrid' ? gateways.krypton : gateways.user,
    proveLiveWrites: mode === 'hybrid',
  };
}
