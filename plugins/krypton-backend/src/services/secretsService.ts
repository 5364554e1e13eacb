import {
  kryptonSecretCreatePermission,
  kryptonSecretReadPermission,
} from '@krypton/plugin-krypton-common';
import {
  ChangeRequestAnswer,
  DeleteRequest,
  DeleteResult,
  KryptonError,
  SecretDto,
  SecretListItem,
  SECRET_ACTIONS,
  SecretSummary,
  SecretWriteAnswer,
  emptyMap,
  keySizes,
  parseAdoptRequest,
  parseCreateRequest,
  parseUpdateRequest,
  splitChangeReason,
  UpdateSecretRequest,
  validateLabelSelector,
  LiveGate,
  VALUE_ACTIONS,
} from '@krypton/core';
import { AUDIT_EVENTS, ownedEditMeta } from './audit';
import { KryptonSecretResource } from '../permissions/resource';
import { admitSecretName } from './callers';
import { ChangeRequestService } from './changeRequestService';
import { SecretRequestContext, SecretTarget } from './requestContext';
import { permissionsFor } from './requestPolicy';
import { ServiceDeps } from './deps';
import { rememberingGate } from './secretGate';
import { versionedWriteResult } from './versionedWrite';

export interface ListOptions {
  labelSelector?: string;
  adoptable?: boolean;
  /** Managed Secrets only, whatever the deployment's managedOnly setting. */
  managed?: boolean;
}

interface GetOptions {
  /**
   * Only these keys' values, as parseSecretKeyList reads them from `?keys=`; the keys that the
   * Secret does not hold are left out. Every value when absent.
   */
  keys?: readonly string[];
}

interface SummaryOptions {
  /** Adds each value's size for a caller who may reveal the values (the summary route's answer). */
  keySizes?: boolean;
}

export interface DeleteOptions {
  /** The metadata.resourceVersion the caller loaded; required. */
  resourceVersion?: string;
  keepHistory?: boolean;
  /** The reason for deleting a Secret that another tool owns (OwnedEditRule). */
  ownedEditReason?: string;
  /** Why the change is asked for, where it needs approval (parseChangeText). */
  changeReason?: string;
}

/** The live Secrets: list, create, read, update, adopt and delete, each gated and audited. */
export class SecretsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly changeRequests: ChangeRequestService,
  ) {}

  async list(
    target: SecretTarget,
    options: ListOptions,
  ): Promise<SecretListItem[]> {
    return this.listIn(await this.deps.callers.context(target), options);
  }

  /** The list in a context that a request may share with other namespaces' lists. */
  async listIn(
    ctx: SecretRequestContext,
    options: ListOptions,
  ): Promise<SecretListItem[]> {
    // As on every Secret route, Kubernetes RBAC answers before the permission: the policy is
    // asked beside the list and observed after it (README, Access). A conditional read filters
    // the list by what each Secret's metadata says, kept while the list is read.
    const permitted = ctx.policyOn([kryptonSecretReadPermission]);
    permitted.catch(() => undefined);
    const resources = new Map<string, KryptonSecretResource>();
    const items = await ctx.live.listItems(
      ctx.namespace,
      secret => {
        if (!ctx.mayList(secret)) return false;
        resources.set(secret.metadata.name ?? '', ctx.resourceOf(secret));
        return true;
      },
      {
        labelSelector:
          options.labelSelector === undefined
            ? undefined
            : validateLabelSelector(options.labelSelector),
        adoptable: options.adoptable,
        managed: options.managed,
      },
    );
    const allows = await permitted;
    const shown = items.filter(item => {
      const resource = resources.get(item.name);
      return resource !== undefined && allows(resource);
    });
    if (!options.adoptable) return shown;
    // The adopt dialog must know whether the policy lets the caller adopt each one.
    return Promise.all(
      shown.map(async item => ({
        ...item,
        policy: await ctx.policyAnswers(resources.get(item.name)!),
      })),
    );
  }

  async create(
    target: SecretTarget,
    request: unknown,
  ): Promise<SecretWriteAnswer> {
    const ctx = await this.deps.callers.context(target);
    const body = parseCreateRequest(request);
    const answer = ctx.answerFor([kryptonSecretCreatePermission]);
    return this.deps.audited(
      ctx,
      AUDIT_EVENTS.create,
      ctx.auditMeta(body.name),
      async () => {
        const allows = await ctx.policyOn([kryptonSecretCreatePermission]);
        ctx.admitPlacement(body.type ?? 'Opaque');
        // The policy's conditions judge the Secret exactly as it would be created.
        const secret = await ctx.live.create(ctx.namespace, body, planned =>
          ctx.requirePolicy(allows, planned),
        );
        return {
          result: await answer(secret),
          meta: {
            version: 1,
            keyCount: Object.keys(secret.data ?? {}).length,
          },
        };
      },
    );
  }

  /**
   * The live Secret with its values, or with the values of the named keys only: a value read,
   * audited, with the names of the keys asked for. The gates are the same either way, so naming
   * keys never reaches values that the whole read would not.
   */
  async get(
    target: SecretTarget,
    name: string,
    options: GetOptions = {},
  ): Promise<SecretDto> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    ctx.askEarly(VALUE_ACTIONS);
    const { keys } = options;
    // The names asked for, found or not, so that the audit says which values a person wanted;
    // names, never values.
    const meta =
      keys === undefined
        ? ctx.auditMeta(name)
        : { ...ctx.auditMeta(name), keys: keys.join(',') };
    return this.deps.audited(ctx, AUDIT_EVENTS.read, meta, async () => {
      const s = await ctx.live.get(ctx.namespace, name, ctx.gate);
      const dto = ctx.live.toDto(s);
      return {
        result: keys === undefined ? dto : withValuesOf(dto, keys),
        meta: { resourceVersion: s.metadata.resourceVersion ?? '' },
      };
    });
  }

  /**
   * The Secret's metadata, and the policy's answer for each action on it. The portal's buttons
   * take their answers from here rather than from the permission backend, which would have to
   * read a Secret of the caller's choosing with Krypton's identity to judge its conditions.
   */
  async summary(
    target: SecretTarget,
    name: string,
    options: SummaryOptions = {},
  ): Promise<SecretSummary> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    // Every action's permission goes with the read's, in one request to the permission backend.
    ctx.askEarly(SECRET_ACTIONS);
    const live = await ctx.live.loadGated(
      ctx.namespace,
      name,
      ['read'],
      ctx.gate,
    );
    const policy = await ctx.policyAnswers(ctx.resourceOf(live));
    const summary: SecretSummary = { ...ctx.live.toSummary(live), policy };
    const approval = this.changeRequests.approvalOf(ctx, live);
    if (approval) summary.approval = approval;
    // Sizes come from the object this read already holds: no value read, so none is audited.
    if (options.keySizes && ctx.mayReveal(live, policy.reveal)) {
      summary.keySizes = keySizes(live);
    }
    return summary;
  }

  /**
   * An update: the previous state goes into history first (VersionedSecrets). On a Secret whose
   * changes need approval, a change request instead (ChangeRequestService).
   */
  async update(
    target: SecretTarget,
    name: string,
    request: unknown,
  ): Promise<SecretWriteAnswer | ChangeRequestAnswer> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const { body: raw, changeReason } = splitChangeReason(request);
    const body = parseUpdateRequest(raw);
    return this.changeRequests.writeOrRequest(
      ctx,
      name,
      { operation: 'update', request: body },
      changeReason,
      gate => this.write(ctx, name, body, gate),
    );
  }

  private write(
    ctx: SecretRequestContext,
    name: string,
    body: UpdateSecretRequest,
    gate: LiveGate,
  ): Promise<SecretWriteAnswer> {
    const answer = ctx.answerFor(permissionsFor(['update']));
    return this.deps.audited(
      ctx,
      AUDIT_EVENTS.update,
      ctx.auditMeta(name),
      async () => {
        const out = await ctx.versioned.update(ctx.namespace, name, body, gate);
        const written = await versionedWriteResult(answer, out);
        this.deps.notifier.notify({
          event: 'update',
          version: written.result.version,
          resourceVersion: written.result.resourceVersion,
          ...ctx.changeOf(out.secret),
          owned: out.owned,
        });
        return written;
      },
    );
  }

  async adopt(
    target: SecretTarget,
    name: string,
    request: unknown,
  ): Promise<SecretSummary> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const body = parseAdoptRequest(request);
    const adopted = await this.deps.audited(
      ctx,
      AUDIT_EVENTS.adopt,
      ctx.auditMeta(name),
      async () => {
        // The namespace is refused before Krypton reads anything there; the type once it is read.
        ctx.admitPlacement();
        const { secret, owned } = await ctx.live.adopt(
          ctx.namespace,
          name,
          body,
          ctx.gate,
          ctx.admitPlacement,
        );
        return {
          result: secret,
          meta: {
            resourceVersion: secret.metadata.resourceVersion ?? '',
            ...ownedEditMeta(owned),
          },
        };
      },
    );
    return ctx.live.toSummary(adopted);
  }

  /**
   * A delete, history kept or cleaned. On a Secret whose changes need approval, a change request
   * instead (ChangeRequestService).
   */
  async delete(
    target: SecretTarget,
    name: string,
    options: DeleteOptions,
  ): Promise<DeleteResult | ChangeRequestAnswer> {
    admitSecretName(name);
    if (options.resourceVersion === undefined) {
      throw new KryptonError(
        'invalid_request',
        'Query parameter "resourceVersion" is required: send the metadata.resourceVersion you loaded.',
      );
    }
    const ctx = await this.deps.callers.context(target);
    const request: DeleteRequest = {
      resourceVersion: options.resourceVersion,
      keepHistory: options.keepHistory ?? false,
      ownedEditReason: options.ownedEditReason,
    };
    return this.changeRequests.writeOrRequest(
      ctx,
      name,
      { operation: 'delete', request },
      options.changeReason ?? '',
      gate => this.remove(ctx, name, request, gate),
    );
  }

  private remove(
    ctx: SecretRequestContext,
    name: string,
    request: DeleteRequest,
    liveGate: LiveGate,
  ): Promise<DeleteResult> {
    const meta = {
      ...ctx.auditMeta(name),
      keepHistory: String(request.keepHistory),
    };
    // The Secret as the delete's own gate read it, for the owners that select it by label.
    const { gate, admitted } = rememberingGate(liveGate);
    return this.deps.audited(ctx, AUDIT_EVENTS.delete, meta, async () => {
      const report = await ctx.versioned.delete(
        ctx.namespace,
        name,
        request,
        gate,
      );
      const deleted = admitted();
      if (deleted) {
        this.deps.notifier.notify({
          event: 'delete',
          ...report.result,
          ...ctx.changeOf(deleted),
          owned: report.owned,
        });
      }
      return {
        result: report.result,
        meta: {
          status: report.result.status,
          history: report.result.history,
          ...ownedEditMeta(report.owned),
          ...(report.cleanup
            ? { snapshotsDeleted: report.cleanup.confirmedAbsent }
            : {}),
        },
      };
    });
  }
}

/** The answer of a read that names keys: their values only; `keys` and `binaryKeys` stay whole. */
function withValuesOf(dto: SecretDto, keys: readonly string[]): SecretDto {
  const data = emptyMap<string>();
  const binaryData = emptyMap<string>();
  for (const key of keys) {
    if (Object.prototype.hasOwnProperty.call(dto.data, key)) {
      data[key] = dto.data[key];
    } else if (Object.prototype.hasOwnProperty.call(dto.binaryData, key)) {
      binaryData[key] = dto.binaryData[key];
    }
  }
  return { ...dto, data, binaryData };
}
