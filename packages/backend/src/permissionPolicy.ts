import { createBackendModule } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  PolicyDecision,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
} from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';

/**
 * The example portal allows every Backstage permission: in the demo, Kubernetes RBAC (through
 * impersonation) and Krypton's per-Secret ACLs are the gates that matter. A real portal replaces
 * this with its own policy; Krypton's permissions are listed in docs/security.md.
 */
class DemoPermissionPolicy implements PermissionPolicy {
  async handle(_request: PolicyQuery): Promise<PolicyDecision> {
    return { result: AuthorizeResult.ALLOW };
  }
}

export const permissionPolicyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'demo-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint },
      async init({ policy }) {
        policy.setPolicy(new DemoPermissionPolicy());
      },
    });
  },
});
