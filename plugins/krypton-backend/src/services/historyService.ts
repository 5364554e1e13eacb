import {
  ChangeRequestAnswer,
  LiveGate,
  RestoreRequest,
  SecretWriteAnswer,
  splitChangeReason,
  VersionDto,
  VersionSummary,
  parseRestoreRequest,
  parseVersionParam,
  VALUE_ACTIONS,
} from '@krypton/core';
import { AUDIT_EVENTS } from './audit';
import { admitSecretName } from './callers';
import { ChangeRequestService } from './changeRequestService';
import { SecretRequestContext, SecretTarget } from './requestContext';
import { permissionsFor } from './requestPolicy';
import { ServiceDeps } from './deps';
import { versionedWriteResult } from './versionedWrite';

/** A Secret's history: the version list, one version with its values, and restore. */
export class HistoryService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly changeRequests: ChangeRequestService,
  ) {}

  async versions(
    target: SecretTarget,
    name: string,
  ): Promise<VersionSummary[]> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    return ctx.versioned.versions(ctx.namespace, name, ctx.gate);
  }

  /** One version with its values: a value read, audited. The version is as the path gives it. */
  async version(
    target: SecretTarget,
    name: string,
    rawVersion: string,
  ): Promise<VersionDto> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const version = parseVersionParam(rawVersion);
    const meta = { ...ctx.auditMeta(name), version: String(version) };
    ctx.askEarly(VALUE_ACTIONS);
    return this.deps.audited(ctx, AUDIT_EVENTS.versionRead, meta, async () => ({
      result: await ctx.versioned.version(
        ctx.namespace,
        name,
        version,
        ctx.gate,
      ),
    }));
  }

  /**
   * A restore, the replaced state kept as a version first. On a Secret whose changes need
   * approval, a change request instead (ChangeRequestService).
   */
  async restore(
    target: SecretTarget,
    name: string,
    request: unknown,
  ): Promise<SecretWriteAnswer | ChangeRequestAnswer> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const { body: raw, changeReason } = splitChangeReason(request);
    const body = parseRestoreRequest(raw);
    return this.changeRequests.writeOrRequest(
      ctx,
      name,
      { operation: 'restore', request: body },
      changeReason,
      gate => this.write(ctx, name, body, gate),
    );
  }

  private write(
    ctx: SecretRequestContext,
    name: string,
    body: RestoreRequest,
    gate: LiveGate,
  ): Promise<SecretWriteAnswer> {
    const meta = {
      ...ctx.auditMeta(name),
      restoredVersion: String(body.version),
    };
    const answer = ctx.answerFor(permissionsFor(['restore']));
    return this.deps.audited(ctx, AUDIT_EVENTS.restore, meta, async () => {
      const out = await ctx.versioned.restore(ctx.namespace, name, body, gate);
      const written = await versionedWriteResult(answer, out);
      this.deps.notifier.notify({
        event: 'restore',
        restoredVersion: body.version,
        version: written.result.version,
        resourceVersion: written.result.resourceVersion,
        ...ctx.changeOf(out.secret),
        owned: out.owned,
      });
      return written;
    });
  }
}
