import { SecretUsage, SecretUsageType } from '../dto';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const list = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter(isObject) : [];

/** Only an exact, string-valued name is a reference: a prefix or another type never is. */
const names = (v: unknown, secret: string) => v === secret;

/**
 * The ways a pod template references one Secret by name, exactly where the spec looks:
 * env[].valueFrom.secretKeyRef.name and envFrom[].secretRef.name on containers, init containers
 * and ephemeral containers; volumes[].secret.secretName; volumes[].projected.sources[].secret.name;
 * and imagePullSecrets[].name. ConfigMap references of the same name are not references to it.
 * Empty when the template references it nowhere; unknown shapes are read as absent.
 *
 * @public
 */
export function findSecretUsages(
  podTemplate: unknown,
  secretName: string,
): SecretUsage[] {
  const spec = isObject(podTemplate) ? podTemplate.spec : undefined;
  if (!isObject(spec)) return [];
  const byContainer = new Map<SecretUsageType, string[]>();
  const note = (type: SecretUsageType, container: string) => {
    const containers = byContainer.get(type) ?? [];
    if (!containers.includes(container)) containers.push(container);
    byContainer.set(type, containers);
  };
  for (const field of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const container of list(spec[field])) {
      const name = typeof container.name === 'string' ? container.name : '';
      for (const env of list(container.env)) {
        const from = env.valueFrom;
        if (
          isObject(from) &&
          isObject(from.secretKeyRef) &&
          names(from.secretKeyRef.name, secretName)
        ) {
          note('env', name);
        }
      }
      for (const envFrom of list(container.envFrom)) {
        if (
          isObject(envFrom.secretRef) &&
          names(envFrom.secretRef.name, secretName)
        ) {
          note('envFrom', name);
        }
      }
    }
  }
  const usages: SecretUsage[] = [];
  for (const type of ['env', 'envFrom'] as const) {
    const containers = byContainer.get(type);
    if (containers) usages.push({ type, containers });
  }
  for (const volume of list(spec.volumes)) {
    const name = typeof volume.name === 'string' ? volume.name : '';
    if (isObject(volume.secret) && names(volume.secret.secretName, secretName))
      usages.push({ type: 'volume', volume: name });
    const projected = volume.projected;
    if (
      isObject(projected) &&
      list(projected.sources).some(
        source =>
          isObject(source.secret) && names(source.secret.name, secretName),
      )
    ) {
      usages.push({ type: 'projected', volume: name });
    }
  }
  if (list(spec.imagePullSecrets).some(ref => names(ref.name, secretName)))
    usages.push({ type: 'imagePullSecret' });
  return usages;
}
