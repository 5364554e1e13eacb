import { KubeGateway, NativeSecret, SECRETS } from '@krypton/core';
// The core's test double of the API server (UIDs, resourceVersions, preconditions, selectors,
// metadata-only reads): the engines run for real in the component tests.
import { InMemoryKubeGateway } from '@krypton/core/testing';
import { HeadlampKrypton, headlampKrypton } from '../engines';
import { HeadlampResource } from '../shownSecret';

export const NS = 'team-a';
export const CLUSTER = 'test';
export const MANAGED = { 'krypton.io/managed-by': 'krypton' };

/**
 * Krypton's real engines on an in-memory API server. `override` replaces gateway calls, to
 * answer as RBAC or an outage would, or to hold an answer back.
 */
export function inMemoryKrypton(override: Partial<KubeGateway> = {}) {
  const gateway = new InMemoryKubeGateway();
  const routed = new Proxy(gateway, {
    get(target, property, receiver) {
      const replaced = (override as Record<PropertyKey, unknown>)[property];
      if (replaced !== undefined) return replaced;
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const krypton: HeadlampKrypton = headlampKrypton({
    gateway: routed,
    cluster: CLUSTER,
    actor: 'headlamp',
  });

  /** Writes a Secret directly, as another client would; values are text. */
  const put = (
    name: string,
    values: Record<string, string>,
    extra: Partial<NativeSecret> = {},
  ) =>
    gateway.put(SECRETS, NS, {
      metadata: { name, labels: { ...MANAGED } },
      data: encode(values),
      ...extra,
    });

  /** Changes the values through Krypton, which saves the replaced state as a version. */
  const update = async (name: string, values: Record<string, string>) => {
    const current = await gateway.get(SECRETS, NS, name);
    await krypton.versioned.update(
      NS,
      name,
      { resourceVersion: current.metadata.resourceVersion!, data: values },
      krypton.gate,
    );
  };

  /** The Secret as Headlamp's details view hands it over. */
  const resource = async (name: string): Promise<HeadlampResource> => ({
    kind: 'Secret',
    cluster: CLUSTER,
    jsonData: await gateway.get(SECRETS, NS, name),
  });

  return { gateway, krypton, put, update, resource };
}

export function encode(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values))
    out[key] = btoa(String.fromCharCode(...new TextEncoder().encode(value)));
  return out;
}
