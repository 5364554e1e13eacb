import { ClusterAdmin } from './clusterAdmin';
import { eventually } from './eventually';

/** A custom resource kind of a tool that owns Secrets, as its project's CRD serves it. */
export interface OwnerKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
}

/**
 * The kinds whose objects own Secrets in real clusters. Their CustomResourceDefinitions here keep
 * each project's group, version, kind and plural, with an open schema: Krypton reads only the
 * Secret's owner reference, never the owner's spec.
 */
export const OWNER_KINDS = {
  ExternalSecret: {
    group: 'external-secrets.io',
    version: 'v1',
    kind: 'ExternalSecret',
    plural: 'externalsecrets',
  },
  SealedSecret: {
    group: 'bitnami.com',
    version: 'v1alpha1',
    kind: 'SealedSecret',
    plural: 'sealedsecrets',
  },
  VaultStaticSecret: {
    group: 'secrets.hashicorp.com',
    version: 'v1beta1',
    kind: 'VaultStaticSecret',
    plural: 'vaultstaticsecrets',
  },
  InfisicalSecret: {
    group: 'secrets.infisical.com',
    version: 'v1alpha1',
    kind: 'InfisicalSecret',
    plural: 'infisicalsecrets',
  },
  Certificate: {
    group: 'cert-manager.io',
    version: 'v1',
    kind: 'Certificate',
    plural: 'certificates',
  },
  Application: {
    group: 'argoproj.io',
    version: 'v1alpha1',
    kind: 'Application',
    plural: 'applications',
  },
  Kustomization: {
    group: 'kustomize.toolkit.fluxcd.io',
    version: 'v1',
    kind: 'Kustomization',
    plural: 'kustomizations',
  },
  HelmRelease: {
    group: 'helm.toolkit.fluxcd.io',
    version: 'v2',
    kind: 'HelmRelease',
    plural: 'helmreleases',
  },
} as const satisfies Record<string, OwnerKind>;

const crdPath = (kind: OwnerKind) =>
  `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${kind.plural}.${kind.group}`;

/**
 * Applies the owner kinds' CustomResourceDefinitions (server-side, so that test files that run
 * at once may all apply them) and waits until the API server serves each.
 */
export async function installOwnerKinds(admin: ClusterAdmin): Promise<void> {
  for (const kind of Object.values(OWNER_KINDS)) {
    const res = await admin.request({
      method: 'PATCH',
      path: crdPath(kind),
      query: { fieldManager: 'krypton-tests', force: 'true' },
      contentType: 'application/apply-patch+yaml',
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${kind.plural}.${kind.group}` },
        spec: {
          group: kind.group,
          scope: 'Namespaced',
          names: {
            kind: kind.kind,
            plural: kind.plural,
            singular: kind.kind.toLowerCase(),
            listKind: `${kind.kind}List`,
          },
          versions: [
            {
              name: kind.version,
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  'x-kubernetes-preserve-unknown-fields': true,
                },
              },
            },
          ],
        },
      },
    });
    if (res.status !== 200 && res.status !== 201) {
      throw new Error(
        `applying the CRD of ${kind.kind} answered ${res.status}`,
      );
    }
  }
  for (const kind of Object.values(OWNER_KINDS)) {
    const served = await eventually(
      () =>
        admin.request({
          method: 'GET',
          path: `/apis/${kind.group}/${kind.version}/${kind.plural}`,
        }),
      res => res.status === 200,
    );
    if (served.status !== 200) {
      throw new Error(`the API server does not serve ${kind.kind}`);
    }
  }
}

/** The API path of an owner kind's objects in a namespace, or of one of them by name. */
export function ownerPath(
  kind: OwnerKind,
  namespace: string,
  name?: string,
): string {
  const collection = `/apis/${kind.group}/${kind.version}/namespaces/${namespace}/${kind.plural}`;
  return name === undefined ? collection : `${collection}/${name}`;
}

/**
 * Creates an object of an owner kind, and answers the owner reference by which it controls a
 * Secret, as the tool's controller writes it.
 */
export async function createOwner(
  admin: ClusterAdmin,
  namespace: string,
  kind: OwnerKind,
  name: string,
) {
  const created = await admin.expect<{ metadata: { uid: string } }>(201, {
    method: 'POST',
    path: ownerPath(kind, namespace),
    body: {
      apiVersion: `${kind.group}/${kind.version}`,
      kind: kind.kind,
      metadata: { name },
      spec: {},
    },
  });
  return {
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    name,
    uid: created.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
