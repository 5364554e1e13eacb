import { BackstageCredentials } from '@backstage/backend-plugin-api';
import {
  PolicyDecision,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import {
  KRYPTON_SECRET_RESOURCE_TYPE,
  SECRET_ACTION_PERMISSIONS,
} from '@krypton/plugin-krypton-common';
import {
  KryptonError,
  SECRET_ACTIONS,
  SecretAction,
  SecretPolicyAnswers,
} from '@krypton/core';
import { PolicyGate, ResourceDecision } from '../permissions/policyGate';
import { KryptonSecretResource } from '../permissions/resource';

type SecretPermission = ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>;

/** The Backstage permissions of the Secret actions. */
export function permissionsFor(
  actions: readonly SecretAction[],
): ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[] {
  return [...new Set(actions.map(a => SECRET_ACTION_PERMISSIONS[a]))];
}

/**
 * One request's questions to the permission policy. Each permission is asked once per request,
 * and what is asked together goes in one request to the permission backend, which costs a token,
 * an HTTP round trip and the policy each time.
 */
export class RequestPolicy {
  private readonly decisions = new Map<string, Promise<PolicyDecision>>();

  constructor(
    private readonly policy: PolicyGate,
    private readonly credentials: BackstageCredentials,
  ) {}

  /** Sends the questions not asked yet, in one request; answers are taken later. */
  ask(permissions: SecretPermission[]): void {
    const missing = [
      ...new Map(
        permissions
          .filter(p => !this.decisions.has(p.name))
          .map(p => [p.name, p]),
      ).values(),
    ];
    if (missing.length === 0) return;
    const batch = this.policy.ask(this.credentials, missing);
    missing.forEach((permission, i) => {
      const decision = batch.then(all => all[i]);
      // Observed by whoever needs it; a decision nobody asks for again must not count as an
      // unhandled rejection when the permission backend fails.
      decision.catch(() => undefined);
      this.decisions.set(permission.name, decision);
    });
  }

  /**
   * The policy's decisions on these permissions: a DENY is a 403 at once; what comes back judges
   * a Secret (conditions, or always true for an ALLOW).
   */
  async on(permissions: SecretPermission[]): Promise<ResourceDecision> {
    this.ask(permissions);
    return this.policy.judge(
      await Promise.all(permissions.map(p => this.decisions.get(p.name)!)),
    );
  }

  /** The policy's answer per action on this Secret, conditions judged on it. */
  async answers(resource: KryptonSecretResource): Promise<SecretPolicyAnswers> {
    this.ask(permissionsFor(SECRET_ACTIONS));
    const answers = await Promise.all(
      SECRET_ACTIONS.map(action =>
        this.on(permissionsFor([action])).then(
          allows => allows(resource),
          err => {
            if (err instanceof KryptonError && err.code === 'forbidden')
              return false;
            throw err;
          },
        ),
      ),
    );
    return Object.fromEntries(
      SECRET_ACTIONS.map((action, i) => [action, answers[i]]),
    ) as SecretPolicyAnswers;
  }
}
