import {
  AuditorService,
  HttpAuthService,
  LoggerService,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  KryptonConfigDto,
  KryptonError,
  MAX_SECRET_BYTES,
  PREVIEW_LIMIT_CODE_UNITS,
  isSnapshotName,
  kryptonSecretCreatePermission,
  kryptonSecretReadPermission,
  messages,
  parseAdoptRequest,
  parseCreateRequest,
  parseUpdateRequest,
  validateSecretName,
} from '@krypton/plugin-krypton-common';
import express, { Request, Response } from 'express';
import Router from 'express-promise-router';
import { KryptonBackendConfig } from './config';
import { createAudited } from './http/audit';
import { errorHandler } from './http/errorHandler';
import {
  authorizePermissions,
  createContextResolver,
} from './http/requestContext';
import { Cluster } from './kubernetes/clusters';

export interface RouterOptions {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  logger: LoggerService;
  httpAuth: HttpAuthService;
  userInfo: UserInfoService;
  permissions: PermissionsService;
  auditor: AuditorService;
}

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { config, clusters, httpAuth, permissions, auditor, logger } = options;
  const router = Router();

  // Every answer of this API may carry Secret data or depend on live access: never cache it.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // A body in any other media type would otherwise be silently ignored.
  router.use((req, _res, next) => {
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 ||
      req.headers['transfer-encoding'];
    if (hasBody && !req.is('application/json')) {
      throw new KryptonError(
        'unsupported_media_type',
        'Send the request body as application/json.',
      );
    }
    next();
  });
  router.use(express.json({ limit: '4mb' }));

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/config', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user'] });
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
  });

  const context = createContextResolver(options);
  const audited = createAudited(auditor);

  const secrets = Router({ mergeParams: true });

  // None of these routes takes query parameters; an unexpected one is a client mistake worth
  // reporting rather than ignoring.
  secrets.use((req, _res, next) => {
    const unknown = Object.keys(req.query)[0];
    if (unknown !== undefined) {
      throw new KryptonError(
        'invalid_request',
        `Unknown query parameter "${unknown.slice(0, 64)}".`,
      );
    }
    next();
  });

  // The one gate for every named-Secret route: malformed names are 400, and history snapshot
  // names are 404 for everyone, admins included, whatever KRYPTON_MANAGED_ONLY says.
  secrets.param('name', (_req, _res, next, name: string) => {
    validateSecretName(name);
    if (isSnapshotName(name))
      throw new KryptonError('not_found', messages.notFound);
    next();
  });

  secrets.get(
    '/namespaces/:namespace/secrets',
    async (req: Request, res: Response) => {
      const ctx = await context(req);
      const decision = await permissions.authorizeConditional(
        [{ permission: kryptonSecretReadPermission }],
        { credentials: ctx.credentials },
      );
      if (decision[0].result !== AuthorizeResult.ALLOW) {
        throw new KryptonError('forbidden', messages.forbiddenPermission);
      }
      const items = (await ctx.live.list(ctx.namespace)).filter(ctx.mayList);
      res.json({ items: items.map(s => ctx.live.toSummary(s)) });
    },
  );

  secrets.post(
    '/namespaces/:namespace/secrets',
    async (req: Request, res: Response) => {
      const ctx = await context(req);
      const body = parseCreateRequest(req.body);
      const meta = ctx.auditMeta(body.name);
      const created = await audited(req, 'secret-create', meta, async () => {
        await authorizePermissions(permissions, ctx.credentials, [
          { permission: kryptonSecretCreatePermission },
        ]);
        const secret = await ctx.live.create(ctx.namespace, body);
        return {
          result: secret,
          meta: { version: 1, keyCount: Object.keys(secret.data ?? {}).length },
        };
      });
      res.status(201).json(ctx.live.toDto(created));
    },
  );

  secrets.get(
    '/namespaces/:namespace/secrets/:name',
    async (req: Request, res: Response) => {
      const ctx = await context(req);
      const name = req.params.name;
      const meta = ctx.auditMeta(name);
      const dto = await audited(req, 'secret-read', meta, async () => {
        const s = await ctx.live.get(ctx.namespace, name, ctx.authorize);
        return {
          result: ctx.live.toDto(s),
          meta: { resourceVersion: s.metadata.resourceVersion ?? '' },
        };
      });
      res.json(dto);
    },
  );

  secrets.put(
    '/namespaces/:namespace/secrets/:name',
    async (req: Request, res: Response) => {
      const ctx = await context(req);
      const name = req.params.name;
      const body = parseUpdateRequest(req.body);
      const meta = ctx.auditMeta(name);
      const dto = await audited(req, 'secret-update', meta, async () => {
        const out = await ctx.live.update(
          ctx.namespace,
          name,
          body,
          ctx.authorize,
        );
        const updated = ctx.live.toDto(out.secret);
        return {
          result: updated,
          meta: {
            dataChanged: out.dataChanged,
            version: updated.version ?? 0,
            resourceVersion: updated.resourceVersion,
          },
        };
      });
      res.json(dto);
    },
  );

  secrets.post(
    '/namespaces/:namespace/secrets/:name/adopt',
    async (req: Request, res: Response) => {
      const ctx = await context(req);
      const name = req.params.name;
      const body = parseAdoptRequest(req.body);
      const meta = ctx.auditMeta(name);
      const adopted = await audited(req, 'secret-adopt', meta, async () => {
        const s = await ctx.live.adopt(
          ctx.namespace,
          name,
          body,
          ctx.authorize,
        );
        return {
          result: s,
          meta: { resourceVersion: s.metadata.resourceVersion ?? '' },
        };
      });
      res.json(ctx.live.toSummary(adopted));
    },
  );

  router.use('/clusters/:cluster', secrets);
  router.use('/', secrets);
  router.use((_req, _res) => {
    throw new KryptonError('not_found', 'No such Krypton route.');
  });
  router.use(errorHandler(logger));
  return router;
}
