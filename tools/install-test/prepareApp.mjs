// Changes a fresh app made by @backstage/create-app the way docs/install.md's "Install in your
// Backstage" section tells a user to, with the packed tarballs in place of the registry.
//
//   node prepareApp.mjs pin <app dir> <unpacked create-app package>
//     root resolutions that hold every @backstage/* package that create-app names to the version
//     of its release (read from create-app's dist, as scripts/pin-backstage-release.mjs does). The
//     template's ranges are carets, and create-app's yarn.lock seed cannot be fetched here, so
//     without them the app mixes releases (and fails to start: see docs/architecture.md, "The Backstage release").
//   node prepareApp.mjs add <app dir> <core.tgz> <common.tgz> <react.tgz> <frontend.tgz> <backend.tgz>
//     <scaffolder module.tgz> <template.yaml>
//     the two `yarn add` commands as package.json entries (one `yarn install` follows), the core and
//     common tarballs through root resolutions (test only: ^0.1.0 is not on the registry), and the
//     backend snippet in packages/backend/src/index.ts. The frontend needs no code: the app's
//     `app.packages: all` discovers the plugin. docs/install.md's frontend snippets (snippets/) go to
//     packages/app/src, where the app's tsc checks them; nothing imports them.
//   node prepareApp.mjs config <app dir> <kube-testenv state.json> <port>
//     app-config.krypton.yaml: krypton.clusters for the local control plane with Krypton's
//     ServiceAccount token, the guest signed in as user:default/guest, and the app served by the
//     backend on <port>; the guest made a member of group:default/team-a in the app's example
//     org, since the demo cluster's RBAC and the demo Secrets' access rules name that group; and
//     the example component example-website linked to krypton-demo/database-credentials.
import {
  appendFileSync,
  copyFileSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

const here = dirname(new URL(import.meta.url).pathname);

const [command, app, ...rest] = process.argv.slice(2);

function fail(message) {
  console.error(`[install-test] ${message}`);
  process.exit(1);
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** A `file:` range from a workspace folder to a tarball, as `yarn add ./x.tgz` would write it. */
function fileRange(fromDir, tarball) {
  return `file:${relative(fromDir, tarball)}`;
}

function pin(createApp) {
  const release = {};
  for (const [group, prefix] of [
    ['packages', ''],
    ['plugins', 'plugin-'],
  ]) {
    const base = join(createApp, 'dist', group);
    for (const name of readdirSync(base)) {
      const src = readFileSync(join(base, name, 'package.json.cjs.js'), 'utf8');
      const version = /var version = "([^"]+)"/.exec(src)?.[1];
      if (!version) fail(`no version in ${base}/${name}`);
      release[`@backstage/${prefix}${name}`] = version;
    }
  }
  const rootPkg = readJson(join(app, 'package.json'));
  rootPkg.resolutions = { ...rootPkg.resolutions, ...release };
  writeJson(join(app, 'package.json'), rootPkg);
  console.error(
    `[install-test] pinned ${
      Object.keys(release).length
    } @backstage/* packages to create-app's release (@backstage/cli ${
      release['@backstage/cli']
    })`,
  );
}

function add(
  core,
  common,
  react,
  frontend,
  backend,
  scaffolderModule,
  template,
) {
  const rootPkg = readJson(join(app, 'package.json'));
  rootPkg.resolutions = {
    ...rootPkg.resolutions,
    '@krypton/core': fileRange(app, core),
    '@krypton/plugin-krypton-common': fileRange(app, common),
    // The frontend's dependency, which no registry serves either.
    '@krypton/plugin-krypton-react': fileRange(app, react),
  };
  writeJson(join(app, 'package.json'), rootPkg);

  for (const [workspace, name, tarball] of [
    ['packages/backend', '@krypton/plugin-krypton-backend', backend],
    [
      'packages/backend',
      '@krypton/plugin-scaffolder-backend-module-krypton',
      scaffolderModule,
    ],
    ['packages/app', '@krypton/plugin-krypton', frontend],
  ]) {
    const dir = join(app, workspace);
    const pkg = readJson(join(dir, 'package.json'));
    pkg.dependencies = { ...pkg.dependencies, [name]: fileRange(dir, tarball) };
    writeJson(join(dir, 'package.json'), pkg);
  }

  for (const file of readdirSync(join(here, 'snippets'))) {
    copyFileSync(
      join(here, 'snippets', file),
      join(app, 'packages/app/src', file),
    );
  }

  const indexPath = join(app, 'packages/backend/src/index.ts');
  const index = readFileSync(indexPath, 'utf8');
  const start = 'backend.start();';
  if (index.split(start).length !== 2) {
    fail(`${indexPath} does not call ${start} exactly once`);
  }
  writeFileSync(
    indexPath,
    index.replace(
      start,
      [
        "backend.add(import('@krypton/plugin-krypton-backend'));",
        "backend.add(import('@krypton/plugin-scaffolder-backend-module-krypton'));",
        '',
        start,
      ].join('\n'),
    ),
  );

  // The example template joins create-app's own, in the catalog location that allows Templates.
  appendFileSync(
    join(app, 'examples/template/template.yaml'),
    `\n---\n${readFileSync(template, 'utf8')}`,
  );
}

function config(statePath, port) {
  const state = readJson(statePath);
  const kubeconfig = readJson(state.identities.krypton.kubeconfig);
  const url = `http://localhost:${port}`;
  // JSON is YAML; the backend serves the production build of packages/app, so app and backend
  // share one origin.
  const appConfig = {
    app: { baseUrl: url },
    backend: {
      baseUrl: url,
      listen: { port: Number(port) },
      cors: { origin: url },
    },
    auth: { providers: { guest: { userEntityRef: 'user:default/guest' } } },
    krypton: {
      clusters: [
        {
          name: 'local',
          url: state.server,
          authProvider: 'serviceAccount',
          serviceAccountToken: kubeconfig.users[0].user.token,
          caFile: state.caFile,
        },
      ],
    },
  };
  writeFileSync(
    join(app, 'app-config.krypton.yaml'),
    `${JSON.stringify(appConfig, null, 2)}\n`,
    { mode: 0o600 },
  );
  // Links one demo Secret from the app's example component, for the entity tab.
  const entitiesPath = join(app, 'examples/entities.yaml');
  const entities = readFileSync(entitiesPath, 'utf8');
  const component = '  name: example-website\n';
  if (entities.split(component).length !== 2) {
    fail(`${entitiesPath} does not name example-website exactly once`);
  }
  writeFileSync(
    entitiesPath,
    entities.replace(
      component,
      `${component}  annotations:\n    krypton.io/secrets: krypton-demo/database-credentials\n`,
    ),
  );
  appendFileSync(
    join(app, 'examples/org.yaml'),
    [
      '',
      '---',
      '# Added by Krypton install test: the demo RBAC and access rules name group:default/team-a.',
      'apiVersion: backstage.io/v1alpha1',
      'kind: Group',
      'metadata:',
      '  name: team-a',
      'spec:',
      '  type: team',
      '  children: []',
      '  members: [guest]',
      '',
    ].join('\n'),
  );
}

if (command === 'pin' && rest.length === 1) {
  pin(...rest);
} else if (command === 'add' && rest.length === 7) {
  add(...rest);
} else if (command === 'config' && rest.length === 2) {
  config(...rest);
} else {
  fail(
    'usage: prepareApp.mjs pin <app> <create-app dir> | add <app> <core.tgz> <common.tgz> <react.tgz> <frontend.tgz> <backend.tgz> <scaffolder module.tgz> <template.yaml> | config <app> <state.json> <port>',
  );
}
