import {
  AuditorService,
  AuditorServiceEvent,
  AuthService,
  BackendFeature,
  LoggerService,
  PermissionsService,
  SchedulerServiceTaskInvocationDefinition,
  coreServices,
  createBackendModule,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
  metricsServiceFactory,
  tracingServiceFactory,
} from '@backstage/backend-defaults/alpha';
import mcpActionsBackend from '@backstage/plugin-mcp-actions-backend';
import notificationsBackend from '@backstage/plugin-notifications-backend';
import signalsBackend from '@backstage/plugin-signals-backend';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
import { Entity } from '@backstage/catalog-model';
import {
  CatalogService,
  catalogServiceRef,
} from '@backstage/plugin-catalog-node';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { permissionsServiceFactory } from '@backstage/backend-defaults/permissions';
import { permissionsRegistryServiceFactory } from '@backstage/backend-defaults/permissionsRegistry';
import permissionBackend from '@backstage/plugin-permission-backend';
import { PermissionPolicy } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  ControlPlaneState,
  Postgres,
  testClusterState,
} from '@krypton/kube-testenv';
import { KubeConfig } from '@kubernetes/client-node';
import { JsonObject } from '@backstage/types';
import { Request } from 'express';
import kryptonPlugin from '../index';

/** Users of the test directory and the groups they belong to. */
export const DIRECTORY: Record<string, string[]> = {
  'user:default/alice': ['group:default/team-a'],
  'user:default/bob': ['group:default/team-b', 'group:default/team-c'],
  'user:default/carol': [],
  'user:default/root': ['group:default/krypton-admins'],
};

/** Everything that the backend logged or audited, to prove that no value ever leaks there. */
export class CaptureSink {
  readonly lines: string[] = [];
  readonly audits: Array<{
    eventId: string;
    severityLevel?: string;
    /** Who the auditor records as the actor: the request's user, or meta.actor without one. */
    actor?: string;
    status: string;
    meta: JsonObject;
    error?: string;
  }> = [];

  text(): string {
    return [...this.lines, ...this.audits.map(a => JSON.stringify(a))].join(
      '\n',
    );
  }
}

class CapturingLogger implements LoggerService {
  constructor(
    private readonly sink: CaptureSink,
    private readonly fields: JsonObject = {},
  ) {}
  private write(level: string, message: string, meta?: Error | JsonObject) {
    const extra =
      meta instanceof Error ? { error: `${meta.name}: ${meta.message}` } : meta;
    this.sink.lines.push(
      `${level} ${message} ${JSON.stringify({ ...this.fields, ...extra })}`,
    );
  }
  error(message: string, meta?: Error | JsonObject) {
    this.write('error', message, meta);
  }
  warn(message: string, meta?: Error | JsonObject) {
    this.write('warn', message, meta);
  }
  info(message: string, meta?: Error | JsonObject) {
    this.write('info', message, meta);
  }
  debug(message: string, meta?: Error | JsonObject) {
    this.write('debug', message, meta);
  }
  child(meta: JsonObject): LoggerService {
    return new CapturingLogger(this.sink, { ...this.fields, ...meta });
  }
}

/** The user of a request signed with `as(user)`: mock user tokens carry their subject. */
function mockTokenSubject(request: Request | undefined): string | undefined {
  const header = request?.headers.authorization;
  const prefix = 'Bearer mock-user-token:';
  if (typeof header !== 'string' || !header.startsWith(prefix))
    return undefined;
  try {
    const { sub } = JSON.parse(header.slice(prefix.length));
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

class RecordingAuditor implements AuditorService {
  constructor(private readonly sink: CaptureSink) {}
  async createEvent(options: {
    eventId: string;
    severityLevel?: string;
    request?: Request;
    meta?: JsonObject;
  }): Promise<AuditorServiceEvent> {
    const metaActor = options.meta?.actor;
    const actor =
      mockTokenSubject(options.request) ??
      (typeof metaActor === 'string' ? metaActor : undefined);
    const base = {
      eventId: options.eventId,
      ...(options.severityLevel
        ? { severityLevel: options.severityLevel }
        : {}),
      ...(actor ? { actor } : {}),
      meta: options.meta ?? {},
    };
    this.sink.audits.push({ ...base, status: 'initiated' });
    return {
      success: async opts => {
        this.sink.audits.push({
          ...base,
          status: 'succeeded',
          meta: { ...base.meta, ...opts?.meta },
        });
      },
      fail: async opts => {
        this.sink.audits.push({
          ...base,
          status: 'failed',
          meta: { ...base.meta, ...opts.meta },
          error: `${opts.error.name}: ${opts.error.message}`,
        });
      },
    };
  }
}

/** A permission request as the policy received it. */
export interface RecordedPermissionRequest {
  permission: string;
  resourceRef?: string;
  user?: string;
}

/**
 * A permission policy that tests can change: everything is allowed unless denied here. It records
 * every request it answers, so tests can assert what Krypton asked for.
 */
export const testPolicy = {
  denied: new Set<string>(),
  requests: [] as RecordedPermissionRequest[],
  reset() {
    this.denied.clear();
    this.requests.length = 0;
  },
};

const permissionsFactory = createServiceFactory({
  service: coreServices.permissions,
  deps: {},
  factory(): PermissionsService {
    const decide = (name: string, user: string | undefined) =>
      testPolicy.denied.has(name) || testPolicy.denied.has(`${user}:${name}`)
        ? AuthorizeResult.DENY
        : AuthorizeResult.ALLOW;
    const userOf = (credentials: { principal: unknown }) =>
      (credentials.principal as { userEntityRef?: string }).userEntityRef;
    const record = (
      r: { permission: { name: string }; resourceRef?: unknown },
      user: string | undefined,
    ) => {
      const entry: RecordedPermissionRequest = {
        permission: r.permission.name,
        user,
      };
      if (typeof r.resourceRef === 'string') entry.resourceRef = r.resourceRef;
      testPolicy.requests.push(entry);
      return decide(r.permission.name, user);
    };
    return {
      async authorize(requests, options) {
        return requests.map(r => ({
          result: record(r, userOf(options.credentials)),
        })) as Awaited<ReturnType<PermissionsService['authorize']>>;
      },
      async authorizeConditional(requests, options) {
        return requests.map(r => ({
          result: record(r, userOf(options.credentials)),
        })) as Awaited<ReturnType<PermissionsService['authorizeConditional']>>;
      },
    };
  },
});

/**
 * The mock auth service, except that a plugin's token on behalf of a user names the plugin as its
 * actor, as Backstage's own tokens do: the permission backend answers conditions only to a plugin
 * that asks for a user, never to the user directly.
 */
const onBehalfOfAuth = createServiceFactory({
  service: coreServices.auth,
  deps: { plugin: coreServices.pluginMetadata },
  factory({ plugin }): AuthService {
    const inner = mockServices.auth({ pluginId: plugin.getId() });

    return {
      authenticate: (token, opts) => inner.authenticate(token, opts),
      isPrincipal: inner.isPrincipal.bind(inner) as AuthService['isPrincipal'],
      getNoneCredentials: () => inner.getNoneCredentials(),
      getOwnServiceCredentials: () => inner.getOwnServiceCredentials(),
      getLimitedUserToken: credentials =>
        inner.getLimitedUserToken(credentials),
      listPublicServiceKeys: () => inner.listPublicServiceKeys(),
      async getPluginRequestToken(options) {
        const principal = options.onBehalfOf.principal as {
          type: string;
          userEntityRef?: string;
        };
        if (principal.type === 'user' && principal.userEntityRef) {
          return {
            token: mockCredentials.user.token(principal.userEntityRef, {
              actor: { subject: `plugin:${plugin.getId()}` },
            }),
          };
        }
        return inner.getPluginRequestToken(options);
      },
    };
  },
});

/** The permission backend with this policy, and the services that ask it over HTTP. */
function realPermissions(policy: PermissionPolicy) {
  return [
    permissionBackend,
    createBackendModule({
      pluginId: 'permission',
      moduleId: 'krypton-test-policy',
      register(reg) {
        reg.registerInit({
          deps: { policies: policyExtensionPoint },
          async init({ policies }) {
            policies.setPolicy(policy);
          },
        });
      },
    }),
    permissionsServiceFactory,
    permissionsRegistryServiceFactory,
    onBehalfOfAuth,
  ];
}

/**
 * An in-memory catalog of these entities for every plugin, recording each call as
 * `<plugin id>:<method>`, so that a test can tell who asked the catalog.
 */
function recordingCatalog(entities: Entity[], calls: string[]) {
  return createServiceFactory({
    service: catalogServiceRef,
    deps: { plugin: coreServices.pluginMetadata },
    factory({ plugin }): CatalogService {
      const inner: CatalogService = catalogServiceMock({ entities });
      return new Proxy(inner, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            calls.push(`${plugin.getId()}:${String(property)}`);
            return value.apply(target, args);
          };
        },
      });
    },
  });
}

/**
 * The scaffolder backend and Krypton's scaffolder module, loaded only by the tests that ask for
 * them: the scaffolder is heavy, and most tests do without it (jest has no dynamic import here).
 */
function scaffolderFeatures(): BackendFeature[] {
  const scaffolder: typeof import('@backstage/plugin-scaffolder-backend') = require('@backstage/plugin-scaffolder-backend');
  const kryptonModule: typeof import('@krypton/plugin-scaffolder-backend-module-krypton') = require('@krypton/plugin-scaffolder-backend-module-krypton');
  return [scaffolder.default, kryptonModule.default];
}

/**
 * A scheduler for every plugin that keeps each task's function by its id, and runs none: the
 * test runs Krypton's when it chooses.
 */
function capturedTasks(
  tasks: Map<string, (signal: AbortSignal) => Promise<void>>,
) {
  const keep = async (task: SchedulerServiceTaskInvocationDefinition) => {
    tasks.set(task.id, async signal => {
      await task.fn(signal);
    });
  };
  return mockServices.scheduler.mock({
    scheduleTask: keep,
    createScheduledTaskRunner: () => ({ run: keep }),
    triggerTask: async () => undefined,
    getScheduledTasks: async () => [],
  }).factory;
}

export interface KryptonTestBackend {
  server: Parameters<typeof import('supertest')>[0];
  /** Base URL of the backend's HTTP server, for clients other than supertest. */
  url: string;
  sink: CaptureSink;
  /** Calls to the `catalog` option's catalog, as `<plugin id>:<method>`. */
  catalogCalls: string[];
  stop(): Promise<void>;
}

/** Krypton's backend plugin on a real HTTP server, against the test run's kube-apiserver. */
export async function startKryptonBackend(
  kryptonConfig: JsonObject = {},
  options: {
    clusterUrl?: string;
    /** A directory for file-backed SQLite databases that outlive the backend. */
    databaseDirectory?: string;
    /** A PostgreSQL server to keep the plugin's database in, shared by every backend given it. */
    postgres?: Postgres;
    /** Another control plane than the test run's (one with encryption at rest, for example). */
    controlPlane?: ControlPlaneState;
    /**
     * A real permission policy, served by the real permission backend beside Krypton, with the
     * real permissions services; without it, `testPolicy` answers in process.
     */
    policy?: PermissionPolicy;
    /** The MCP actions backend beside Krypton, serving Krypton's actions as tools. */
    mcp?: boolean;
    /**
     * The real notifications and signals backends beside Krypton. Krypton sends only when
     * `krypton.notifications.enabled` is set too; the notifications backend resolves groups to
     * their members through the catalog, so give one.
     */
    notifications?: boolean;
    /** An in-memory catalog of these entities for every plugin, Krypton's and the others'. */
    catalog?: { entities: Entity[] };
    /**
     * The real scaffolder backend beside Krypton, with Krypton's scaffolder module. It reads its
     * templates from the catalog, so give one.
     */
    scaffolder?: boolean;
    /**
     * Keeps the plugin's scheduled tasks here by id instead of running them, so that a test runs
     * one when it chooses (with an abort signal of its own).
     */
    scheduledTasks?: Map<string, (signal: AbortSignal) => Promise<void>>;
  } = {},
): Promise<KryptonTestBackend> {
  const sink = new CaptureSink();
  const catalogCalls: string[] = [];
  const state = options.controlPlane ?? testClusterState();
  const kc = new KubeConfig();
  kc.loadFromFile(state.identities.krypton.kubeconfig);
  const token = kc.getCurrentUser()?.token;
  const cluster = kc.getCurrentCluster();
  const backend = await startTestBackend({
    features: [
      kryptonPlugin,
      mockServices.rootConfig.factory({
        data: {
          backend: {
            database: options.postgres
              ? { client: 'pg', connection: options.postgres.connection }
              : {
                  client: 'better-sqlite3',
                  connection: options.databaseDirectory
                    ? { directory: options.databaseDirectory }
                    : ':memory:',
                },
            ...(options.mcp ? { actions: { pluginSources: ['krypton'] } } : {}),
          },
          ...(options.policy ? { permission: { enabled: true } } : {}),
          // The notifications backend checks links against the app's address; the events service
          // keeps to its in-process bus, since no events backend is installed.
          ...(options.notifications
            ? {
                app: { baseUrl: 'http://localhost:3000' },
                events: { useEventBus: 'never' },
              }
            : {}),
          krypton: {
            admins: ['group:default/krypton-admins'],
            clusters: [
              {
                name: 'test',
                url: options.clusterUrl ?? state.server,
                authProvider: 'serviceAccount',
                serviceAccountToken: token,
                caFile: cluster?.caFile,
                caData: cluster?.caData,
                // A plain-HTTP test proxy needs it: client-node refuses http otherwise.
                skipTLSVerify:
                  options.clusterUrl?.startsWith('http:') ||
                  cluster?.skipTLSVerify,
              },
            ],
            ...kryptonConfig,
          },
        },
      }),
      createServiceFactory({
        service: coreServices.rootLogger,
        deps: {},
        factory: () => new CapturingLogger(sink) as never,
      }),
      createServiceFactory({
        service: coreServices.logger,
        deps: {},
        factory: () => new CapturingLogger(sink, { plugin: 'krypton' }),
      }),
      createServiceFactory({
        service: coreServices.auditor,
        deps: {},
        factory: () => new RecordingAuditor(sink),
      }),
      createServiceFactory({
        service: coreServices.userInfo,
        deps: {},
        factory: () => ({
          async getUserInfo(credentials) {
            const ref = (credentials.principal as { userEntityRef: string })
              .userEntityRef;
            return {
              userEntityRef: ref,
              ownershipEntityRefs: [ref, ...(DIRECTORY[ref] ?? [])],
            };
          },
        }),
      }),
      actionsRegistryServiceFactory,
      ...(options.mcp
        ? [
            mcpActionsBackend,
            actionsServiceFactory,
            metricsServiceFactory,
            tracingServiceFactory,
          ]
        : []),
      ...(options.notifications
        ? // The real events service, whose bus all plugins share, so that Krypton's signals
          // reach the signals backend (the test backend's mock gives each plugin its own).
          [notificationsBackend, signalsBackend, eventsServiceFactory]
        : []),
      ...(options.scaffolder ? scaffolderFeatures() : []),
      ...(options.scheduledTasks
        ? [capturedTasks(options.scheduledTasks)]
        : []),
      ...(options.catalog
        ? [recordingCatalog(options.catalog.entities, catalogCalls)]
        : []),
      ...(options.policy
        ? realPermissions(options.policy)
        : [permissionsFactory]),
      // Without this, the mock httpAuth treats a request with no token as a default user.
      mockServices.httpAuth.factory({
        defaultCredentials: mockCredentials.none(),
      }),
    ],
  });
  return {
    server: backend.server,
    url: `http://127.0.0.1:${backend.server.port()}`,
    sink,
    catalogCalls,
    stop: () => backend.stop(),
  };
}

/** The Authorization header of a signed-in Backstage user. */
export const as = (user: string) =>
  mockCredentials.user.header(`user:default/${user}`);
