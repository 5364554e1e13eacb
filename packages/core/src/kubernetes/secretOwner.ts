import {
  OwnedEditOutcome,
  OwnedEditRule,
  SecretOwner,
  SecretOwnerTool,
} from '../dto';
import { isDnsSubdomain } from '../validation';
import { ObjectMeta, OwnerReference } from './types';

/** The owner reference with `controller: true`; the API server allows at most one. */
const controllerReference = (meta: ObjectMeta): OwnerReference | undefined =>
  (meta.ownerReferences ?? []).find(o => o.controller === true);

// Which tool owns a Secret, and what an edit of its data in place will come to, from exact
// metadata keys only. Each rule names the tool's own source for what it does (docs/owners.md):
// a guess here would tell people their change is safe when it is not.

/** An owner as the metadata says, before the installation's rule for edits is applied. */
type RecognizedOwner = Omit<SecretOwner, 'edits'>;

interface OwnerKind {
  tool: SecretOwnerTool;
  outcome: OwnedEditOutcome;
}

/**
 * Controllers recognised by their owner reference: the API group and kind of the controlling
 * owner. External Secrets re-syncs a Secret it manages as soon as its data hash no longer matches;
 * Sealed Secrets and Infisical write again only when their source changes or their controller
 * restarts; Vault Secrets Operator at its next refresh; cert-manager re-issues a certificate whose
 * Secret no longer holds a matching key pair at once.
 */
const CONTROLLERS: Record<string, OwnerKind> = {
  'external-secrets.io/ExternalSecret': {
    tool: 'external-secrets',
    outcome: 'reverted-at-once',
  },
  'bitnami.com/SealedSecret': {
    tool: 'sealed-secrets',
    outcome: 'lost-later',
  },
  'secrets.hashicorp.com/VaultStaticSecret': {
    tool: 'vault-secrets-operator',
    outcome: 'reverted-at-refresh',
  },
  'secrets.hashicorp.com/VaultDynamicSecret': {
    tool: 'vault-secrets-operator',
    outcome: 'reverted-at-refresh',
  },
  'secrets.hashicorp.com/VaultPKISecret': {
    tool: 'vault-secrets-operator',
    outcome: 'reverted-at-refresh',
  },
  'secrets.infisical.com/InfisicalSecret': {
    tool: 'infisical',
    outcome: 'lost-later',
  },
  'secrets.infisical.com/InfisicalStaticSecret': {
    tool: 'infisical',
    outcome: 'lost-later',
  },
  'cert-manager.io/Certificate': {
    tool: 'cert-manager',
    outcome: 'replaced-at-once',
  },
};

const groupOf = (apiVersion: string) =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

/**
 * A Flux setting, read from an annotation or a label as Flux itself reads it, and only as one of
 * the values Flux documents: the owner object reaches readers of summaries, to whom a free-text
 * annotation that summaries withhold must not leak through it.
 */
function fluxSetting(
  meta: ObjectMeta,
  key: string,
  values: readonly string[],
): string | undefined {
  const value = meta.annotations?.[key] ?? meta.labels?.[key];
  return value !== undefined && values.includes(value) ? value : undefined;
}

const OBJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/;

/**
 * Whether text is a name an owning object can have: DNS labels and subdomains, Argo CD's
 * `<namespace>_<app>`, at most 253 characters. Names from annotations are free text until this
 * says otherwise; people paste them into shells.
 *
 * @public
 */
export function isOwnerObjectName(text: string): boolean {
  return OBJECT_NAME.test(text);
}

/** An object's UID as the API server writes it; it goes into a patch as a precondition. */
const UID = /^[A-Za-z0-9-]{1,64}$/;

/** A Kubernetes kind: a letter, then letters and digits. */
const KIND = /^[A-Za-z][A-Za-z0-9]{0,62}$/;

/**
 * The per-object settings, as `settings` lists them, that tell the owner to leave the Secret, so
 * that an edit is `kept`: Flux's `reconcile: disabled`, `ssa: IfNotPresent` and `ssa: Ignore`.
 */
const KEEPING_SETTINGS: ReadonlySet<string> = new Set([
  'kustomize.toolkit.fluxcd.io/reconcile=disabled',
  'kustomize.toolkit.fluxcd.io/ssa=IfNotPresent',
  'kustomize.toolkit.fluxcd.io/ssa=Ignore',
]);

/**
 * Whether a setting of `owner.settings` is one that makes the owner leave the Secret.
 *
 * @public
 */
export function isKeepingSetting(setting: string): boolean {
  return KEEPING_SETTINGS.has(setting);
}

const SSA_MODES = ['Override', 'Merge', 'IfNotPresent', 'Ignore'] as const;

/** Argo CD's tracking id: `<app>:<group>/<kind>:<namespace>/<name>`; the app is before the colon. */
function argoApplication(trackingId: string): string | undefined {
  const colon = trackingId.indexOf(':');
  return colon > 0 ? trackingId.slice(0, colon) : undefined;
}

function byController(meta: ObjectMeta): RecognizedOwner | undefined {
  const owner = controllerReference(meta);
  if (!owner) return undefined;
  const known = CONTROLLERS[`${groupOf(owner.apiVersion)}/${owner.kind}`];
  return {
    tool: known?.tool ?? 'controller',
    // A kind goes into messages: only what a kind can be.
    kind: KIND.test(owner.kind) ? owner.kind : undefined,
    name: owner.name,
    outcome: known?.outcome ?? 'unknown',
    evidence: ['ownerReferences'],
  };
}

/**
 * The ExternalSecret that controls a Secret, as its owner reference names it: the object that an
 * External Secrets sync request annotates.
 *
 * @public
 */
export interface ControllingExternalSecret {
  /** `external-secrets.io/<version>`, the version that the controller wrote. */
  apiVersion: string;
  /** Its name, in the Secret's namespace. */
  name: string;
  /** Its UID: a request to it is conditional on being this object. */
  uid: string;
}

const ESO_API_VERSION =
  /^external-secrets\.io\/v[1-9][0-9]{0,2}(?:(?:alpha|beta)[1-9][0-9]{0,2})?$/;

/**
 * The controlling owner reference of a Secret when it is an ExternalSecret's, with a version, a
 * name and a UID that a request path and a precondition can carry; undefined otherwise (a Secret
 * that External Secrets merged into or orphaned names no ExternalSecret).
 *
 * @public
 */
export function controllingExternalSecret(
  meta: ObjectMeta,
): ControllingExternalSecret | undefined {
  const owner = controllerReference(meta);
  if (
    !owner ||
    owner.kind !== 'ExternalSecret' ||
    typeof owner.apiVersion !== 'string' ||
    !ESO_API_VERSION.test(owner.apiVersion) ||
    typeof owner.name !== 'string' ||
    !isDnsSubdomain(owner.name) ||
    typeof owner.uid !== 'string' ||
    !UID.test(owner.uid)
  ) {
    return undefined;
  }
  return { apiVersion: owner.apiVersion, name: owner.name, uid: owner.uid };
}

const ESO_MANAGED = 'reconcile.external-secrets.io/managed';
const ESO_HASH = 'reconcile.external-secrets.io/data-hash';
const SEALED_MANAGED = 'sealedsecrets.bitnami.com/managed';
const MANAGED_BY = 'app.kubernetes.io/managed-by';
const ARGO_TRACKING = 'argocd.argoproj.io/tracking-id';
const FLUX_KUSTOMIZE = 'kustomize.toolkit.fluxcd.io';
const FLUX_HELM = 'helm.toolkit.fluxcd.io';
const HELM_RELEASE = 'meta.helm.sh/release-name';
const HELM_NAMESPACE = 'meta.helm.sh/release-namespace';
const CERTIFICATE = 'cert-manager.io/certificate-name';

function byExternalSecrets(meta: ObjectMeta): RecognizedOwner | undefined {
  const evidence = [
    meta.labels?.[ESO_MANAGED] === 'true' && ESO_MANAGED,
    meta.annotations?.[ESO_HASH] !== undefined && ESO_HASH,
  ].filter((key): key is string => key !== false);
  if (evidence.length === 0) return undefined;
  // Without an owner reference the ExternalSecret's creationPolicy is Merge (re-synced at once)
  // or Orphan (at its next refresh); the Secret does not say which.
  return {
    tool: 'external-secrets',
    kind: 'ExternalSecret',
    outcome: 'reverted-at-once-or-refresh',
    evidence,
  };
}

function byFlux(meta: ObjectMeta): RecognizedOwner | undefined {
  const kustomization = meta.labels?.[`${FLUX_KUSTOMIZE}/name`];
  if (kustomization !== undefined) {
    const settings: string[] = [];
    const reconcile = fluxSetting(meta, `${FLUX_KUSTOMIZE}/reconcile`, [
      'disabled',
    ]);
    if (reconcile === 'disabled') {
      settings.push(`${FLUX_KUSTOMIZE}/reconcile=disabled`);
    }
    const ssa = fluxSetting(meta, `${FLUX_KUSTOMIZE}/ssa`, SSA_MODES);
    if (ssa !== undefined) settings.push(`${FLUX_KUSTOMIZE}/ssa=${ssa}`);
    // IfNotPresent applies only a missing object and Ignore never applies; Override and Merge
    // still apply the manifest's own fields, data included.
    const outcome: OwnedEditOutcome = settings.some(isKeepingSetting)
      ? 'kept'
      : 'reverted-at-refresh';
    return {
      tool: 'flux',
      kind: 'Kustomization',
      name: kustomization,
      namespace: meta.labels?.[`${FLUX_KUSTOMIZE}/namespace`],
      outcome,
      evidence: [`${FLUX_KUSTOMIZE}/name`],
      ...(settings.length > 0 ? { settings } : {}),
    };
  }
  const release = meta.labels?.[`${FLUX_HELM}/name`];
  if (release !== undefined) {
    const drift = fluxSetting(meta, `${FLUX_HELM}/driftDetection`, [
      'disabled',
    ]);
    return {
      tool: 'flux',
      kind: 'HelmRelease',
      name: release,
      namespace: meta.labels?.[`${FLUX_HELM}/namespace`],
      // Drift detection is off unless the HelmRelease turns it on, which the Secret does not show:
      // the next upgrade of the release writes its own state.
      outcome: 'reverted-at-upgrade',
      evidence: [`${FLUX_HELM}/name`],
      ...(drift !== undefined
        ? { settings: [`${FLUX_HELM}/driftDetection=${drift}`] }
        : {}),
    };
  }
  return undefined;
}

/**
 * The tool that owns a Secret, from its metadata alone, in this precedence: a controlling owner
 * reference; External Secrets' label or hash; Sealed Secrets' `managed` annotation; Vault Secrets
 * Operator's `managed-by`; Argo CD's tracking id (or its instance label, where the rules name
 * it); Flux's labels; Helm's release; cert-manager's certificate name. Undefined for a Secret that no tool claims: its newest writer is then only
 * information, which `lastChange.manager` already gives.
 *
 * @public
 */
export function recognizeOwner(
  meta: ObjectMeta,
  rules: OwnedSecretRules = {},
): SecretOwner | undefined {
  const owner = recognize(meta, rules);
  if (!owner) return undefined;
  // Optional fields that the metadata does not give are left out, not sent as undefined; and only
  // a name that an object can have reaches readers: several names come from free-text
  // annotations, which summaries otherwise withhold.
  for (const key of ['kind', 'name', 'namespace'] as const) {
    const value = owner[key];
    if (value === undefined || (key !== 'kind' && !isOwnerObjectName(value))) {
      delete owner[key];
    }
  }
  return {
    ...owner,
    edits: ownedEditRule(owner.tool, owner.outcome, rules.allowEdits ?? []),
  };
}

/**
 * An installation's settings for Secrets that other tools own (krypton.ownedSecrets).
 *
 * @public
 */
export interface OwnedSecretRules {
  /** The tools whose Secrets may be edited, each edit with a reason; none when absent. */
  allowEdits?: readonly SecretOwnerTool[];
  /**
   * The label by which this installation's Argo CD tracks resources, where it tracks by label
   * rather than by annotation (Argo CD's `application.instanceLabelKey`, by default
   * `app.kubernetes.io/instance`). Only the installation can say so: the label alone is common to
   * other tools (Helm charts set it too).
   */
  argoCdInstanceLabel?: string;
}

/**
 * What Krypton does with an update, restore, adopt or delete of an owned Secret: an edit that
 * lasts (a setting tells the owner to leave the Secret) goes through; otherwise it is refused,
 * unless the installation allows the owner's edits, each with a reason.
 *
 * @public
 */
export function ownedEditRule(
  tool: SecretOwnerTool,
  outcome: OwnedEditOutcome,
  allowEdits: readonly SecretOwnerTool[],
): OwnedEditRule {
  if (outcome === 'kept') return 'allowed';
  return allowEdits.includes(tool) ? 'reason-required' : 'refused';
}

/**
 * Every tool recognizeOwner names, for settings that list them.
 *
 * @public
 */
export const SECRET_OWNER_TOOLS: readonly SecretOwnerTool[] = [
  'external-secrets',
  'sealed-secrets',
  'vault-secrets-operator',
  'infisical',
  'argocd',
  'flux',
  'helm',
  'cert-manager',
  'controller',
];

function recognize(
  meta: ObjectMeta,
  rules: OwnedSecretRules,
): RecognizedOwner | undefined {
  const controller = byController(meta);
  if (controller) return controller;
  const eso = byExternalSecrets(meta);
  if (eso) return eso;
  if (meta.annotations?.[SEALED_MANAGED] === 'true') {
    return {
      tool: 'sealed-secrets',
      kind: 'SealedSecret',
      outcome: 'lost-later',
      evidence: [SEALED_MANAGED],
    };
  }
  const managedBy = meta.labels?.[MANAGED_BY];
  if (managedBy === 'hashicorp-vso') {
    return {
      tool: 'vault-secrets-operator',
      outcome: 'reverted-at-refresh',
      evidence: [MANAGED_BY],
    };
  }
  const tracking = meta.annotations?.[ARGO_TRACKING];
  if (tracking !== undefined) {
    return {
      tool: 'argocd',
      kind: 'Application',
      name: argoApplication(tracking),
      outcome: 'reverted-at-sync',
      evidence: [ARGO_TRACKING],
    };
  }
  const instanceLabel = rules.argoCdInstanceLabel;
  const instance =
    instanceLabel === undefined ? undefined : meta.labels?.[instanceLabel];
  if (instanceLabel !== undefined && instance !== undefined) {
    return {
      tool: 'argocd',
      kind: 'Application',
      name: instance,
      outcome: 'reverted-at-sync',
      evidence: [instanceLabel],
    };
  }
  const flux = byFlux(meta);
  if (flux) return flux;
  const release = meta.annotations?.[HELM_RELEASE];
  if (managedBy === 'Helm' && release !== undefined) {
    return {
      tool: 'helm',
      kind: 'Release',
      name: release,
      namespace: meta.annotations?.[HELM_NAMESPACE],
      outcome: 'reverted-at-upgrade',
      evidence: [MANAGED_BY, HELM_RELEASE],
    };
  }
  const certificate = meta.annotations?.[CERTIFICATE];
  if (certificate !== undefined) {
    return {
      tool: 'cert-manager',
      kind: 'Certificate',
      name: certificate,
      outcome: 'replaced-at-once',
      evidence: [CERTIFICATE],
    };
  }
  return undefined;
}
