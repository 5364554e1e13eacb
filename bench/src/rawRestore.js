/*
 * The baseline of kubectlKrypton.bench.ts's restore: a plain Node script that sends the same
 * Kubernetes requests, in the same order, as `kubectl krypton restore NAME VERSION --yes`, with
 * node:https alone and no Krypton code. Its history is its own (`<name>-v<N>` Secrets labelled
 * `bench.krypton.io/raw-of=<name>`), so the two never read each other's snapshots.
 *
 *   node rawRestore.js '{"server", "ca", "tokenFile", "namespace", "name", "version", "limit"}'
 *
 * The requests, as the terminal sends them:
 *  1-3. the preview: the live Secret (restore's refusals), then the live Secret again and the
 *       version (the version read gates on the live object too);
 *  4-5. the restore's own gate on the live object, and the version it restores;
 *  6.   a SelfSubjectReview, for the username that the snapshot records;
 *  7.   the snapshot of the live state (POST);
 *  8.   the history's metadata-only list, for retention;
 *  9.   the oldest snapshot deleted with UID and resourceVersion preconditions, once over the limit;
 *  10.  the live Secret replaced with the version's data, on the revision read first (PUT).
 */
'use strict';

const https = require('node:https');
const { readFileSync } = require('node:fs');

const METADATA_LIST =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const RAW_OF = 'bench.krypton.io/raw-of';
const VERSION = 'bench.krypton.io/version';

const options = JSON.parse(process.argv[2]);
const token = readFileSync(options.tokenFile, 'utf8').trim();
const agent = new https.Agent({
  keepAlive: true,
  ca: readFileSync(options.ca),
});

function request(method, path, value, accept = 'application/json') {
  const body = value === undefined ? undefined : JSON.stringify(value);
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${options.server}${path}`,
      {
        method,
        agent,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: accept,
          // Node frames no body of a DELETE unless told its length.
          ...(body === undefined
            ? {}
            : {
                'Content-Type': 'application/json',
                'Content-Length': Buffer.byteLength(body),
              }),
        },
      },
      res => {
        const chunks = [];
        res.on('data', chunk => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          // A Status's reason only: its message may quote the object sent.
          if (res.statusCode >= 300)
            reject(
              new Error(
                `${method} ${path}: ${res.statusCode} ${
                  JSON.parse(text).reason ?? ''
                }`,
              ),
            );
          else resolve(JSON.parse(text));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const { namespace, name, version, limit } = options;
  const secrets = `/api/v1/namespaces/${namespace}/secrets`;
  const snapshotPath = n => `${secrets}/${name}-v${n}`;

  const shown = await request('GET', `${secrets}/${name}`);
  await request('GET', `${secrets}/${name}`);
  const previewed = await request('GET', snapshotPath(version));
  const live = await request('GET', `${secrets}/${name}`);
  if (live.metadata.resourceVersion !== shown.metadata.resourceVersion)
    throw new Error('the Secret changed since the preview');
  const target = await request('GET', snapshotPath(version));
  if (target.metadata.uid !== previewed.metadata.uid)
    throw new Error('the version changed since the preview');
  const review = await request(
    'POST',
    '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    },
  );
  const next = Number(live.metadata.annotations[VERSION]);
  await request('POST', secrets, {
    metadata: {
      name: `${name}-v${next}`,
      labels: { [RAW_OF]: name },
      annotations: {
        [VERSION]: String(next),
        'bench.krypton.io/by': `kubectl:${review.status.userInfo.username}`,
        'bench.krypton.io/source-resource-version':
          live.metadata.resourceVersion,
      },
    },
    type: 'Opaque',
    immutable: true,
    data: live.data,
  });
  const kept = await request(
    'GET',
    `${secrets}?labelSelector=${encodeURIComponent(
      `${RAW_OF}=${name}`,
    )}&fieldSelector=type%3DOpaque&limit=100`,
    undefined,
    METADATA_LIST,
  );
  const byVersion = kept.items.sort(
    (a, b) =>
      Number(a.metadata.annotations[VERSION]) -
      Number(b.metadata.annotations[VERSION]),
  );
  for (const old of byVersion.slice(0, Math.max(0, byVersion.length - limit)))
    await request('DELETE', `${secrets}/${old.metadata.name}`, {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: {
        uid: old.metadata.uid,
        resourceVersion: old.metadata.resourceVersion,
      },
    });
  await request('PUT', `${secrets}/${name}`, {
    ...live,
    metadata: {
      ...live.metadata,
      annotations: {
        ...live.metadata.annotations,
        [VERSION]: String(next + 1),
      },
    },
    data: target.data,
  });
}

main().catch(err => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
