import {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import {
  ConsumersResult,
  KryptonConfigDto,
  KryptonError,
  MAX_SECRET_BYTES,
  PREVIEW_LIMIT_CODE_UNITS,
  ParsedQuery,
  QuerySchema,
  isSnapshotName,
  kryptonSecretCreatePermission,
  kryptonSecretReadPermission,
  kryptonStorageRewritePermission,
  StorageMigrationStatus,
  validateNamespace,
  messages,
  parseAdoptRequest,
  parseCreateRequest,
  parseQuery,
  parseRestoreRequest,
  parseUpdateRequest,
  parseVersionParam,
  VersionList,
  validateLabelSelector,
  validateSecretName,
  SecretSummary,
  SecretWriteAnswer,
} from '@krypton/plugin-krypton-common';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  NativeSecret,
  VersionedWrite,
  StorageRewrite,
  restartHttpStatus,
  rewriteResultFor,
  storageMigrationStatus,
} from '@krypton/plugin-krypton-common/engine';

import express, { Request, Response } from 'express';
import Router from 'express-promise-router';
import { KryptonBackendConfig } from './config';
import { AUDIT_EVENTS, createAudited } from './http/audit';
import { authGate } from './http/authGate';
import { jsonBody } from './http/body';
import { errorHandler } from './http/errorHandler';
import {
  authorizePermissions,
  createContextResolver,
} from './http/requestContext';
import { RestartResultStore } from './database/restartResults';
import { StorageRewriteStore } from './database/storageRewrites';
import { Cluster } from './kubernetes/clusters';

export interface RouterOptions {
  config: KryptonBackendConfig;
  restartResults: RestartResultStore;
  storageRewrites: StorageRewriteStore;
  clusters: Cluster[];
  logger: LoggerService;
  httpAuth: HttpAuthService;
  userInfo: UserInfoService;
  permissions: PermissionsService;
  auditor: AuditorService;
}

const NO_QUERY = {} as const satisfies QuerySchema;
const LIST_QUERY = {
  labelSelector: 'text',
  adoptable: 'boolean',
} as const satisfies QuerySchema;
const REWRITE_QUERY = {
  namespace: 'text',
} as const satisfies QuerySchema;
const DELETE_QUERY = {
  resourceVersion: 'resourceVersion',
  keepHistory: 'boolean',
} as const satisfies QuerySchema;

/** restart-consumers takes no body; an empty JSON object is tolerated as none. */
function requireNoBody(body: unknown) {
  const empty =
    body === undefined ||
    (typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length === 0);
  if (!empty) {
    throw new KryptonError(
      'invalid_request',
      'restart-consumers takes no request body.',
    );
  }
}

/** An update's or restore's answer, and what it saved into history for its audit event. */
async function versionedWriteResult(
  answer: (secret: NativeSecret) => Promise<SecretWriteAnswer>,
  out: VersionedWrite,
) {
  const result = await answer(out.secret);
  return {
    result,
    meta: {
      ...(out.archive
        ? {
            archivedVersion: out.archive.archivedVersion,
            prunedCount: out.archive.pruned,
          }
        : {}),
      dataChanged: out.dataChanged,
      version: result.version ?? 0,
      resourceVersion: result.resourceVersion,
    },
  };
}

/**
 * Express's default ETag is a hash of the whole body, values included: a fingerprint of the
 * Secret's data that caches and logs keep, and with If-None-Match an oracle that answers 304 when
 * a guessed value is right. The setting belongs to the host's application, so this response sees
 * a view of it without an ETag function; every other setting is the host's own.
 */
function withoutETag(res: Response) {
  const host = res.app;
  const view: express.Application = Object.create(host);
  view.settings = Object.create(host.settings, {
    'etag fn': { value: undefined },
  });
  res.app = view;
}

/**
 * A route handler with the query parameters it declares. Every route names its schema, so an
 * unknown or malformed parameter is a 400 rather than silently ignored. The check runs after the
 * router's :name gate, so a snapshot name answers 404 before any query is judged.
 */
function withQuery<S extends QuerySchema>(
  schema: S,
  handler: (
    req: Request,
    res: Response,
    query: ParsedQuery<S>,
  ) => Promise<void>,
) {
  return (req: Request, res: Response) =>
    handler(req, res, parseQuery(rawQuery(req), schema));
}

/**
 * The query as the client sent it. Express's parser drops names such as __proto__ and nests
 * a[b]=c, which would let a parameter pass unseen; each name is checked as written instead.
 */
function rawQuery(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  const at = req.originalUrl.indexOf('?');
  if (at < 0) return out;
  for (const [name, value] of new URLSearchParams(
    req.originalUrl.slice(at + 1),
  )) {
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else out[name] = [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return out;
}

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const {
    config,
    clusters,
    httpAuth,
    permissions,
    auditor,
    logger,
    restartResults,
    storageRewrites,
  } = options;
  const router = Router();

  // Every answer of this API may carry Secret data or depend on live access: never cache it, and
  // never fingerprint it.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    withoutETag(res);
    next();
  });

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Everything below, unknown routes included, needs a signed-in Backstage user.
  router.use(authGate(httpAuth));

  router.get(
    '/config',
    withQuery(NO_QUERY, async (_req, res) => {
      const body: KryptonConfigDto = {
        annotationPrefix: config.annotationPrefix,
        identityMode: config.identity,
        clusters: clusters.map(c => c.name),
        defaultCluster: clusters[0].name,
        historyLimit: config.historyLimit.ok ? config.historyLimit.value : null,
        restartEnabled: config.restartEnabled,
        managedOnly: config.managedOnly,
        maxSecretBytes: MAX_SECRET_BYTES,
        previewLimit: PREVIEW_LIMIT_CODE_UNITS,
      };
      if (!config.historyLimit.ok) {
        res.status(503).json({ ...body, error: config.historyLimit.error });
        return;
      }
      res.json(body);
    }),
  );

  const { context, identify, rewriteScope } = createContextResolver(options);
  const audited = createAudited(auditor);

  const secrets = Router({ mergeParams: true });

  // The one gate for every named-Secret route: malformed names are 400, and history snapshot
  // names are 404 for everyone, admins included, whatever KRYPTON_MANAGED_ONLY says. It runs
  // before the body is read, so a snapshot name answers 404 whatever body comes with it.
  secrets.use('/namespaces/:namespace/secrets/:name', (req, _res, next) => {
    validateSecretName(req.params.name);
    if (isSnapshotName(req.params.name))
      throw new KryptonError('not_found', messages.notFound);
    next();
  });
  secrets.use(...jsonBody());

  secrets.get(
    '/namespaces/:namespace/secrets',
    withQuery(LIST_QUERY, async (req, res, query) => {
      const ctx = await context(req);
      // The list is the read permission without a resource; Krypton registers no conditional
      // rules, so only an unconditional ALLOW lets it through. As on every Secret route,
      // Kubernetes RBAC answers before the permission: the check runs beside the list and is
      // observed after it (README, Access).
      const permitted = permissions.authorizeConditional(
        [{ permission: kryptonSecretReadPermission }],
        { credentials: ctx.credentials },
      );
      permitted.catch(() => undefined);
      const items = await ctx.live.listSummaries(ctx.namespace, ctx.mayList, {
        labelSelector:
          query.labelSelector === undefined
            ? undefined
            : validateLabelSelector(query.labelSelector),
        adoptable: query.adoptable,
      });
      const [decision] = await permitted;
      if (decision.result !== AuthorizeResult.ALLOW) {
        throw new KryptonError('forbidden', messages.forbiddenPermission);
      }
      res.json({ items });
    }),
  );

  secrets.post(
    '/namespaces/:namespace/secrets',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const body = parseCreateRequest(req.body);
      const meta = ctx.auditMeta(body.name);
      const answer = ctx.answerFor(body.name);
      const created = await audited(
        req,
        AUDIT_EVENTS.create,
        meta,
        async () => {
          await authorizePermissions(permissions, ctx.credentials, [
            { permission: kryptonSecretCreatePermission },
          ]);
          ctx.admitPlacement(body.type ?? 'Opaque');
          const secret = await ctx.live.create(ctx.namespace, body);
          return {
            result: await answer(secret),
            meta: {
              version: 1,
              keyCount: Object.keys(secret.data ?? {}).length,
            },
          };
        },
      );
      res.status(201).json(created);
    }),
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      const meta = ctx.auditMeta(name);
      const dto = await audited(req, AUDIT_EVENTS.read, meta, async () => {
        const s = await ctx.live.get(ctx.namespace, name, ctx.gate);
        return {
          result: ctx.live.toDto(s),
          meta: { resourceVersion: s.metadata.resourceVersion ?? '' },
        };
      });
      res.json(dto);
    }),
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name/summary',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const body: SecretSummary = await ctx.live.summary(
        ctx.namespace,
        req.params.name,
        ctx.gate,
      );
      res.json(body);
    }),
  );

  secrets.put(
    '/namespaces/:namespace/secrets/:name',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      const body = parseUpdateRequest(req.body);
      const meta = ctx.auditMeta(name);
      const answer = ctx.answerFor(name);
      const dto = await audited(req, AUDIT_EVENTS.update, meta, async () => {
        const out = await ctx.versioned.update(
          ctx.namespace,
          name,
          body,
          ctx.gate,
        );
        return versionedWriteResult(answer, out);
      });
      res.json(dto);
    }),
  );

  secrets.post(
    '/namespaces/:namespace/secrets/:name/adopt',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      const body = parseAdoptRequest(req.body);
      const meta = ctx.auditMeta(name);
      const adopted = await audited(req, AUDIT_EVENTS.adopt, meta, async () => {
        // The namespace is refused before Krypton reads anything there; the type once it is read.
        ctx.admitPlacement();
        const s = await ctx.live.adopt(
          ctx.namespace,
          name,
          body,
          ctx.gate,
          ctx.admitPlacement,
        );
        return {
          result: s,
          meta: { resourceVersion: s.metadata.resourceVersion ?? '' },
        };
      });
      res.json(ctx.live.toSummary(adopted));
    }),
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name/versions',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const items = await ctx.versioned.versions(
        ctx.namespace,
        req.params.name,
        ctx.gate,
      );
      const body: VersionList = { items };
      res.json(body);
    }),
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name/versions/:version',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      const version = parseVersionParam(req.params.version);
      const meta = { ...ctx.auditMeta(name), version: String(version) };
      const dto = await audited(
        req,
        AUDIT_EVENTS.versionRead,
        meta,
        async () => ({
          result: await ctx.versioned.version(
            ctx.namespace,
            name,
            version,
            ctx.gate,
          ),
        }),
      );
      res.json(dto);
    }),
  );

  secrets.post(
    '/namespaces/:namespace/secrets/:name/restore',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      const body = parseRestoreRequest(req.body);
      const meta = {
        ...ctx.auditMeta(name),
        restoredVersion: String(body.version),
      };
      const answer = ctx.answerFor(name);
      const dto = await audited(req, AUDIT_EVENTS.restore, meta, async () => {
        const out = await ctx.versioned.restore(
          ctx.namespace,
          name,
          body,
          ctx.gate,
        );
        return versionedWriteResult(answer, out);
      });
      res.json(dto);
    }),
  );

  secrets.delete(
    '/namespaces/:namespace/secrets/:name',
    withQuery(DELETE_QUERY, async (req, res, query) => {
      const ctx = await context(req);
      const name = req.params.name;
      if (query.resourceVersion === undefined) {
        throw new KryptonError(
          'invalid_request',
          'Query parameter "resourceVersion" is required: send the metadata.resourceVersion you loaded.',
        );
      }
      const request = {
        resourceVersion: query.resourceVersion,
        keepHistory: query.keepHistory ?? false,
      };
      const meta = {
        ...ctx.auditMeta(name),
        keepHistory: String(request.keepHistory),
      };
      const out = await audited(req, AUDIT_EVENTS.delete, meta, async () => {
        const report = await ctx.versioned.delete(
          ctx.namespace,
          name,
          request,
          ctx.gate,
        );
        return {
          result: report.result,
          meta: {
            status: report.result.status,
            history: report.result.history,
            ...(report.cleanup
              ? { snapshotsDeleted: report.cleanup.confirmedAbsent }
              : {}),
          },
        };
      });
      res.status(out.status === 'deleted' ? 200 : 202).json(out);
    }),
  );

  secrets.post(
    '/namespaces/:namespace/secrets/:name/restart-consumers',
    withQuery(NO_QUERY, async (req, res) => {
      if (!config.restartEnabled) {
        throw new KryptonError('forbidden', messages.restartDisabled);
      }
      requireNoBody(req.body);
      const ctx = await context(req);
      const name = req.params.name;
      const meta = ctx.auditMeta(name);
      const result = await audited(
        req,
        AUDIT_EVENTS.restart,
        meta,
        async () => {
          const live = await ctx.live.gateRestart(
            ctx.namespace,
            name,
            ctx.gate,
          );
          const out = await ctx.restart.restart(ctx.namespace, name);
          try {
            await restartResults.save(
              {
                cluster: ctx.cluster.name,
                namespace: ctx.namespace,
                name,
                uid: live.metadata.uid ?? '',
              },
              {
                result: out,
                requestedBy: ctx.actor,
                requestedAt: new Date().toISOString(),
              },
            );
          } catch (err) {
            // The rollouts were requested either way; only the record for teammates is missing.
            logger.warn(
              `Could not store the restart result of ${
                ctx.namespace
              }/${name}: ${(err as Error).name}`,
            );
          }
          return {
            result: out,
            meta: {
              status: out.status,
              matched: out.matched,
              requested: out.requested.map(w => ({ ...w })),
              failures: out.failures.map(f => ({ ...f })),
              discoveryFailures: out.discoveryFailures.map(f => ({ ...f })),
            },
            outcome:
              out.status === 'partial' || out.status === 'failed'
                ? new Error(out.message)
                : undefined,
          };
        },
      );
      res.status(restartHttpStatus(result.status)).json(result);
    }),
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name/restart-consumers/last',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      const live = await ctx.live.loadGated(
        ctx.namespace,
        name,
        ['read'],
        ctx.gate,
        { metadataOnly: true },
      );
      const last = await restartResults.load({
        cluster: ctx.cluster.name,
        namespace: ctx.namespace,
        name,
        uid: live.metadata.uid ?? '',
      });
      res.json({ last: last ?? null });
    }),
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name/consumers',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await context(req);
      const name = req.params.name;
      await ctx.live.loadGated(ctx.namespace, name, ['read'], ctx.gate, {
        metadataOnly: true,
      });
      const body: ConsumersResult = await ctx.restart.consumers(
        ctx.namespace,
        name,
      );
      res.json(body);
    }),
  );

  // The operator's storage rewrite: Krypton's own identity rewrites its objects in one namespace
  // (?namespace=) or in every namespace the caller may list, after the permission check.
  const operator = async (req: Request) => {
    const ctx = await identify(req);
    await authorizePermissions(permissions, ctx.credentials, [
      { permission: kryptonStorageRewritePermission },
    ]);
    return ctx;
  };

  secrets.post(
    '/storage-rewrite',
    withQuery(REWRITE_QUERY, async (req, res, query) => {
      const namespace =
        query.namespace === undefined
          ? undefined
          : validateNamespace(query.namespace);
      const meta = { scope: namespace ?? '*' };
      const result = await audited(
        req,
        AUDIT_EVENTS.storageRewrite,
        meta,
        async () => {
          const ctx = await operator(req);
          const rewrite = new StorageRewrite({
            gateway: ctx.gateways.krypton,
            annotationPrefix: config.annotationPrefix,
          });
          const scope = rewriteScope(ctx, rewrite);
          if (namespace !== undefined) await scope.admit(namespace);
          const out = await rewrite.run({
            namespace,
            lister: ctx.gateways.user,
            include: scope.include,
          });
          try {
            await storageRewrites.save(
              ctx.cluster.name,
              out.namespaces.map(ns => ({
                namespace: ns,
                result: rewriteResultFor(out, ns),
                requestedBy: ctx.actor,
                requestedAt: out.startedAt,
              })),
            );
          } catch (err) {
            logger.warn(
              `Could not store the storage rewrite result: ${
                (err as Error).name
              }`,
            );
          }
          const incomplete =
            out.counts.failed > 0 || out.namespaceFailures.length > 0;
          return {
            result: out,
            meta: {
              cluster: ctx.cluster.name,
              namespaces: out.namespaces.length,
              ...out.counts,
              namespaceFailures: out.namespaceFailures.length,
            },
            outcome: incomplete
              ? new Error('The storage rewrite did not cover every object.')
              : undefined,
          };
        },
      );
      const incomplete =
        result.counts.failed > 0 || result.namespaceFailures.length > 0;
      res.status(incomplete ? 207 : 200).json(result);
    }),
  );

  secrets.get(
    '/storage-rewrite/last',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await operator(req);
      res.json({ runs: await storageRewrites.list(ctx.cluster.name) });
    }),
  );

  secrets.get(
    '/storage-rewrite/migrations',
    withQuery(NO_QUERY, async (req, res) => {
      const ctx = await operator(req);
      const body: StorageMigrationStatus = await storageMigrationStatus(
        ctx.gateways.krypton,
      );
      res.json(body);
    }),
  );

  router.use('/clusters/:cluster', secrets);
  router.use('/', secrets);
  router.use((_req, _res) => {
    throw new KryptonError('not_found', 'No such Krypton route.');
  });
  router.use(errorHandler(logger));
  return router;
}
