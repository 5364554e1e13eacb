import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readKryptonConfig } from '../config';
import { KryptonServices } from '../services';
import { createRouter } from './router';

/**
 * The OpenAPI document (schema/openapi.yaml, published with the package) must name exactly the
 * routes that the routers serve. The route table is read from the real router's express stack:
 * building it touches no service, so the services are not needed and no cluster is.
 */

const DOCUMENT = join(__dirname, '..', '..', 'schema', 'openapi.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  regexp: RegExp & { fast_slash?: boolean };
  keys: Array<{ name: string }>;
}

// How express 4 (path-to-regexp 0.1) compiles a mount path such as /clusters/:cluster.
const PARAM = '(?:\\/([^/]+?))';
const MOUNT_END = '\\/?(?=\\/|$)';

/** The path a sub-router is mounted at, read back from its layer; '' for '/'. */
function mountPath(layer: Layer): string {
  if (layer.regexp.fast_slash) return '';
  const source = layer.regexp.source;
  if (!source.startsWith('^') || !source.endsWith(MOUNT_END)) {
    throw new Error(`Cannot read the mount path of ${layer.regexp}`);
  }
  const parts = source.slice(1, -MOUNT_END.length).split(PARAM);
  if (parts.length !== layer.keys.length + 1) {
    throw new Error(`Cannot read the mount path of ${layer.regexp}`);
  }
  const path = parts
    .map((part, i) => (i === 0 ? part : `/:${layer.keys[i - 1].name}${part}`))
    .join('')
    .replace(/\\\//g, '/');
  if (!/^(\/:?[\w.-]+)+$/.test(path)) {
    throw new Error(`Cannot read the mount path of ${layer.regexp}`);
  }
  return path;
}

/** 'METHOD /path/{param}' for every route of a router and of the routers mounted in it. */
function routesOf(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap(layer => {
    if (layer.route) {
      const { path, methods } = layer.route;
      if (typeof path !== 'string') {
        throw new Error(`A route path that is not a string: ${String(path)}`);
      }
      const openApiPath = `${prefix}${path}`.replace(/:(\w+)/g, '{$1}');
      return Object.keys(methods)
        .filter(method => methods[method])
        .map(method => `${method.toUpperCase()} ${openApiPath}`);
    }
    if (Array.isArray(layer.handle.stack)) {
      return routesOf(layer.handle.stack, `${prefix}${mountPath(layer)}`);
    }
    return []; // middleware: the name gate, the body reader, the auth gate
  });
}

type Doc = {
  paths: Record<string, Record<string, any>>;
  [key: string]: any;
};

/** What a local $ref (#/components/...) points at; undefined when nothing. */
function resolve(doc: Doc, ref: string): any {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map(token => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, token) => node?.[token], doc);
}

/** Every object of the document with where it is, for the checks below. */
function* walk(node: unknown, at = '#'): Generator<[string, any]> {
  if (typeof node !== 'object' || node === null) return;
  yield [at, node];
  for (const [key, value] of Object.entries(node))
    yield* walk(value, `${at}/${key}`);
}

describe('schema/openapi.yaml', () => {
  const doc: Doc = parse(readFileSync(DOCUMENT, 'utf8'));
  const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter(method => item[method]).map(
      method => `${method.toUpperCase()} ${path}`,
    ),
  );
  let served: string[];

  beforeAll(async () => {
    const router = await createRouter({
      config: readKryptonConfig(new ConfigReader({})),
      clusterNames: ['local'],
      services: {} as KryptonServices,
      logger: mockServices.logger.mock(),
      httpAuth: mockServices.httpAuth(),
    });
    served = routesOf((router as unknown as { stack: Layer[] }).stack);
  });

  it('reads a route table from the routers', () => {
    expect(served).toContain('GET /health');
    expect(served).toContain(
      'GET /clusters/{cluster}/namespaces/{namespace}/secrets/{name}',
    );
    expect(new Set(served).size).toBe(served.length);
  });

  it('documents every route that the routers serve', () => {
    const missing = served.filter(route => !documented.includes(route));
    const label = 'served by the routers but missing from schema/openapi.yaml';
    expect({ [label]: missing }).toEqual({ [label]: [] });
  });

  it('documents no route that the routers do not serve', () => {
    const extra = documented.filter(route => !served.includes(route));
    const label = 'in schema/openapi.yaml but not served by the routers';
    expect({ [label]: extra }).toEqual({ [label]: [] });
  });

  it('declares the parameters of every path template, and only those', () => {
    const mismatches = Object.entries(doc.paths).flatMap(([path, item]) => {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(m => m[1]).sort();
      return METHODS.filter(method => item[method]).flatMap(method => {
        const declared = [
          ...(item.parameters ?? []),
          ...(item[method].parameters ?? []),
        ]
          .map(p => (p.$ref ? resolve(doc, p.$ref) : p))
          .filter(p => p?.in === 'path')
          .map(p => p.name)
          .sort();
        return declared.join() === inPath.join()
          ? []
          : [`${method.toUpperCase()} ${path}: ${declared.join()}`];
      });
    });
    expect(mismatches).toEqual([]);
  });

  it('documents each route under /clusters/{cluster} as it documents it for the default cluster', () => {
    const prefix = '/clusters/{cluster}';
    const copies = Object.keys(doc.paths).filter(path =>
      path.startsWith(`${prefix}/`),
    );
    // The copy without its cluster parameter and with the default route's operation ids.
    const asDefault = (path: string) => {
      const item = structuredClone(doc.paths[path]);
      item.parameters = (item.parameters ?? []).filter(
        (p: { $ref?: string }) => p.$ref !== '#/components/parameters/cluster',
      );
      if (item.parameters.length === 0) delete item.parameters;
      for (const method of METHODS) {
        if (item[method]) {
          item[method].operationId = String(item[method].operationId).replace(
            /InCluster$/,
            '',
          );
        }
      }
      return item;
    };
    expect(
      Object.fromEntries(copies.map(path => [path, asDefault(path)])),
    ).toEqual(
      Object.fromEntries(
        copies.map(path => [path, doc.paths[path.slice(prefix.length)]]),
      ),
    );
  });

  it('resolves every $ref and names each operation once', () => {
    const unresolved = [...walk(doc)]
      .filter(([, node]) => typeof node.$ref === 'string')
      .filter(([, node]) => resolve(doc, node.$ref) === undefined)
      .map(([at, node]) => `${at}: ${node.$ref}`);
    expect(unresolved).toEqual([]);
    const ids = Object.values(doc.paths).flatMap(item =>
      METHODS.filter(method => item[method]).map(
        method => item[method].operationId,
      ),
    );
    expect(ids.every(id => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries no examples, so that none can be a Secret value', () => {
    const examples = [...walk(doc)]
      .filter(([, node]) => 'example' in node || 'examples' in node)
      .map(([at]) => at);
    expect(examples).toEqual([]);
  });
});
