import type {
  OwnedEditOutcome,
  OwnedEditRule,
  SecretOwner,
  SecretOwnerTool,
} from '@krypton/core';
import {
  MAX_OWNED_EDIT_REASON,
  OwnedEditReasonProblem,
  isKeepingSetting,
  isOwnerObjectName,
} from '@krypton/core';
import { englishT, MessageKeyOf } from '../texts';
import { ownedSecretMessages } from './messages';

/**
 * The words of owned Secrets, under the area they have in Krypton's translation ref.
 *
 * @public
 */
export const ownerViewMessages = {
  owner: ownedSecretMessages,
} as const;

/**
 * A message key of the owned Secrets' words (`owner.tools.helm`...).
 *
 * @public
 */
export type OwnerTextKey = MessageKeyOf<typeof ownerViewMessages>;

/**
 * How a host turns a key of the owned Secrets' words into words: Backstage's translation `t` is
 * one.
 *
 * @public
 */
export type OwnerT = (
  key: OwnerTextKey,
  params?: { [name: string]: string },
) => string;

/**
 * The English words of owned Secrets, for a host without translations.
 *
 * @public
 */
export const englishOwnerT: OwnerT = englishT<
  OwnerTextKey,
  { [name: string]: string }
>(ownerViewMessages);

/**
 * What describeOwnership reads of a Secret: where it lives, its owner and the field managers that
 * applied its data; a summary, a list item and a value answer each fit.
 *
 * @public
 */
export interface OwnershipFacts {
  namespace: string;
  name: string;
  owner?: SecretOwner;
  dataAppliedBy?: string[];
}

/**
 * How to change an owned Secret where it comes from, so that the change lasts: the step in words
 * and, where one exists, the command to run (placeholders in angle brackets stand for what the
 * Secret does not say).
 *
 * @public
 */
export interface OwnershipInstead {
  text: string;
  command?: string;
}

/**
 * Who owns a Secret and what a change of it comes to, in words. Every part is absent where the
 * Secret has nothing to say about it.
 *
 * @public
 */
export interface OwnershipDescription {
  /** "Owned by Helm", or, for a Secret that only a server-side apply claims, that it was applied. */
  title: string;
  /** The owning object by kind, name and namespace, where the Secret names it. */
  object?: string;
  /** What an edit of the data in place comes to. */
  prediction?: string;
  /** The Secret's settings that the prediction does not already name. */
  settings?: string;
  /** That a server-side apply of the data will fail on a field conflict after a change here. */
  conflict?: string;
  /** What Krypton does with an update, restore, adopt or delete. */
  rule?: string;
  /** How to make a lasting change at the source; absent where an edit here is kept. */
  instead?: OwnershipInstead;
  /** Krypton's rule for changes (ownedEditsOf); absent without an owner. */
  edits?: OwnedEditRule;
}

const TOOL_KEYS: Record<SecretOwnerTool, OwnerTextKey> = {
  'external-secrets': 'owner.tools.externalSecrets',
  'sealed-secrets': 'owner.tools.sealedSecrets',
  'vault-secrets-operator': 'owner.tools.vaultSecretsOperator',
  infisical: 'owner.tools.infisical',
  argocd: 'owner.tools.argocd',
  flux: 'owner.tools.flux',
  helm: 'owner.tools.helm',
  'cert-manager': 'owner.tools.certManager',
  controller: 'owner.tools.controller',
};

const OUTCOME_KEYS: Record<
  Exclude<OwnedEditOutcome, 'kept' | 'reverted-at-upgrade'>,
  OwnerTextKey
> = {
  'reverted-at-once': 'owner.outcomes.revertedAtOnce',
  'reverted-at-once-or-refresh': 'owner.outcomes.revertedAtOnceOrRefresh',
  'reverted-at-refresh': 'owner.outcomes.revertedAtRefresh',
  'reverted-at-sync': 'owner.outcomes.revertedAtSync',
  'replaced-at-once': 'owner.outcomes.replacedAtOnce',
  'lost-later': 'owner.outcomes.lostLater',
  unknown: 'owner.outcomes.unknown',
};

const RULE_KEYS: Record<OwnedEditRule, OwnerTextKey> = {
  refused: 'owner.rules.refused',
  'reason-required': 'owner.rules.reasonRequired',
  allowed: 'owner.rules.allowed',
};

/**
 * What Krypton does with a change of a Secret that this owner owns. The backend always says; an
 * answer from before the rule existed is read as the default, a refusal, which never lets a
 * change through that the backend would refuse.
 *
 * @public
 */
export function ownedEditsOf(
  owner: Omit<SecretOwner, 'edits'> & { edits?: OwnedEditRule },
): OwnedEditRule {
  return owner.edits ?? 'refused';
}

/**
 * The owning tool's name as a sentence names it: "Helm", or "a controller (Widget)" for another
 * controller.
 *
 * @public
 */
export function ownerToolName(owner: SecretOwner, t: OwnerT): string {
  if (owner.tool === 'controller' && owner.kind) {
    return t('owner.tools.controllerKind', { kind: owner.kind });
  }
  // A tool from a newer backend is still worth naming.
  const key = TOOL_KEYS[owner.tool] as OwnerTextKey | undefined;
  return key ? t(key) : owner.tool;
}

/**
 * Why a change of an owned Secret is not offered, as a disabled action's reason: undefined where
 * the owner's rule lets the change through (with or without a reason).
 *
 * @public
 */
export function ownedEditRefusal(
  owner: SecretOwner | undefined,
  t: OwnerT,
): string | undefined {
  if (!owner || ownedEditsOf(owner) !== 'refused') return undefined;
  return t('owner.refused', { tool: ownerToolName(owner, t) });
}

// Names go into commands that people paste into a shell: only what an object name may hold.
const safeName = (name: string | undefined, placeholder: string) =>
  name !== undefined && isOwnerObjectName(name) ? name : placeholder;

/** Argo CD names an Application in another namespace `<namespace>_<app>`; its CLI `<namespace>/<app>`. */
const argoAppArgument = (name: string) => name.replace('_', '/');

function prediction(owner: SecretOwner, tool: string, t: OwnerT): string {
  if (owner.outcome === 'reverted-at-upgrade') {
    return owner.tool === 'helm'
      ? t('owner.outcomes.revertedAtUpgradeHelm')
      : t('owner.outcomes.revertedAtUpgrade');
  }
  if (owner.outcome === 'kept') {
    const keeping = (owner.settings ?? []).filter(isKeepingSetting);
    return keeping.length > 0
      ? t('owner.outcomes.kept', { settings: keeping.join(', '), tool })
      : t('owner.outcomes.keptBySetting', { tool });
  }
  const key = OUTCOME_KEYS[owner.outcome] as OwnerTextKey | undefined;
  return t(key ?? 'owner.outcomes.unknown', { tool });
}

/** The settings that the prediction did not name already. */
function otherSettings(owner: SecretOwner): string[] {
  const settings = owner.settings ?? [];
  return owner.outcome === 'kept'
    ? settings.filter(s => !isKeepingSetting(s))
    : settings;
}

function ownerObject(owner: SecretOwner, t: OwnerT): string | undefined {
  if (!owner.kind || !owner.name) return undefined;
  const { kind, name, namespace } = owner;
  return namespace
    ? t('owner.objectIn', { kind, name, namespace })
    : t('owner.object', { kind, name });
}

/** The owning object as a step names it: by name where the Secret gives it. */
function stepObject(
  kind: string,
  name: string | undefined,
  secret: string,
  t: OwnerT,
): string {
  return name !== undefined && isOwnerObjectName(name)
    ? t('owner.instead.named', { kind, name })
    : t('owner.instead.unnamed', { kind, secret });
}

/** The lasting way to change the Secret, by its owner; each command as the tool documents it. */
function instead(
  owner: SecretOwner,
  facts: OwnershipFacts,
  t: OwnerT,
): OwnershipInstead | undefined {
  const secret = facts.name;
  const ns = facts.namespace;
  // Where the owning object lives: as the metadata names it, else beside the Secret.
  const ownerNs = safeName(owner.namespace, ns);
  const { name } = owner;
  switch (owner.tool) {
    case 'external-secrets': {
      const target = safeName(name, '<externalsecret>');
      return {
        text: t('owner.instead.externalSecrets', {
          object: stepObject('ExternalSecret', name, secret, t),
        }),
        command: `kubectl annotate externalsecret ${target} -n ${ns} force-sync=$(date +%s) --overwrite`,
      };
    }
    case 'sealed-secrets':
      return {
        // A SealedSecret has its Secret's name: the controller writes the Secret of its own name.
        text: t('owner.instead.sealedSecrets', {
          object: t('owner.instead.named', {
            kind: 'SealedSecret',
            name: safeName(name, secret),
          }),
        }),
        command: `kubeseal --raw --namespace ${ns} --name ${secret}`,
      };
    case 'vault-secrets-operator':
      return { text: t('owner.instead.vaultSecretsOperator') };
    case 'infisical':
      return { text: t('owner.instead.infisical') };
    case 'argocd':
      return {
        text: t('owner.instead.argocd', {
          object: stepObject('Application', name, secret, t),
        }),
        command: `argocd app sync ${argoAppArgument(safeName(name, '<app>'))}`,
      };
    case 'flux':
      if (owner.kind === 'HelmRelease') {
        return {
          text: t('owner.instead.fluxHelmRelease', {
            object: stepObject('HelmRelease', name, secret, t),
          }),
          command: `flux reconcile helmrelease ${safeName(
            name,
            '<helmrelease>',
          )} -n ${ownerNs} --with-source`,
        };
      }
      return {
        text: t('owner.instead.fluxKustomization', {
          object: stepObject('Kustomization', name, secret, t),
        }),
        command: `flux reconcile kustomization ${safeName(
          name,
          '<kustomization>',
        )} -n ${ownerNs} --with-source`,
      };
    case 'helm':
      return {
        text: t('owner.instead.helm', {
          object: stepObject(t('owner.instead.helmRelease'), name, secret, t),
        }),
        command: `helm upgrade ${safeName(
          name,
          '<release>',
        )} <chart> -n ${ownerNs}`,
      };
    case 'cert-manager':
      return {
        text: t('owner.instead.certManager', {
          object: stepObject('Certificate', name, secret, t),
        }),
        command: `cmctl renew ${safeName(name, '<certificate>')} -n ${ns}`,
      };
    case 'controller':
      return {
        text: t('owner.instead.controller', {
          object: stepObject(owner.kind ?? 'controller', name, secret, t),
        }),
      };
    default:
      return undefined;
  }
}

/**
 * Who owns a Secret and what a change of it comes to: the owner, what an edit of its data in place
 * will do, what Krypton does with a change, and how to change it at its source instead; and, for
 * data that a server-side apply owns, that the next such apply will fail on a field conflict.
 * Undefined for a Secret that nothing claims.
 *
 * @public
 */
export function describeOwnership(
  facts: OwnershipFacts,
  t: OwnerT,
): OwnershipDescription | undefined {
  const { owner } = facts;
  const appliers = facts.dataAppliedBy ?? [];
  const conflict =
    appliers.length > 0
      ? t('owner.appliedBy', { managers: appliers.join(', ') })
      : undefined;
  if (!owner) {
    return conflict ? { title: t('owner.appliedTitle'), conflict } : undefined;
  }
  const tool = ownerToolName(owner, t);
  const edits = ownedEditsOf(owner);
  const settings = otherSettings(owner);
  const description: OwnershipDescription = {
    title: t('owner.title', { tool }),
    prediction: prediction(owner, tool, t),
    rule: t(RULE_KEYS[edits]),
    edits,
  };
  const object = ownerObject(owner, t);
  if (object) description.object = object;
  if (settings.length > 0) {
    description.settings = t('owner.settings', {
      settings: settings.join(', '),
    });
  }
  if (conflict) description.conflict = conflict;
  // Where the owner leaves the Secret, an edit here lasts, and a change at the source may not
  // reach it at all (Flux does not apply an object it is told to leave).
  if (owner.outcome !== 'kept') {
    const step = instead(owner, facts, t);
    if (step) description.instead = step;
  }
  return description;
}

/**
 * Whether a change made through Krypton lasts: Krypton lets it through as any other (`allowed`)
 * and no server-side apply will conflict with it. A banner informs then, and warns otherwise.
 *
 * @public
 */
export function ownershipLasts(described: OwnershipDescription): boolean {
  return described.edits === 'allowed' && !described.conflict;
}

/**
 * A reason's problem in words.
 *
 * @public
 */
export function describeReasonProblem(
  problem: OwnedEditReasonProblem,
  t: OwnerT,
): string {
  switch (problem) {
    case 'tooLong':
      return t('owner.reason.tooLong', {
        max: String(MAX_OWNED_EDIT_REASON),
      });
    case 'oneLine':
      return t('owner.reason.oneLine');
    default:
      return t('owner.reason.required');
  }
}
