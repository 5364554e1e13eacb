// Runs examples/krypton-secret-template.yaml through the fresh app's own scaffolder, which has the
// packed @krypton/plugin-scaffolder-backend-module-krypton, as the guest (through the
// scaffolder's HTTP API, as its frontend does): the action is listed, the task completes, the
// Secret exists with the value from the task's secrets, and no task event carries the value.
//   INSTALL_TEST_URL, INSTALL_TEST_KUBECTL, INSTALL_TEST_KUBECONFIG: set by run.sh
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

const appUrl = process.env.INSTALL_TEST_URL;
const NAMESPACE = 'krypton-demo';
const NAME = `scaffolded-${randomBytes(3).toString('hex')}`;
const TEMPLATE = 'template:default/krypton-create-secret';
const log = message => console.error(`[install-test] ${message}`);

async function until(what, read, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 1000));
  }
}

async function api(token, path, init = {}) {
  const res = await fetch(`${appUrl}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

const refresh = await fetch(
  `${appUrl}/api/auth/guest/refresh?env=development`,
  { headers: { 'X-Requested-With': 'XMLHttpRequest' } },
);
if (!refresh.ok) throw new Error(`guest sign-in: ${refresh.status}`);
const token = (await refresh.json()).backstageIdentity.token;

const actions = await api(token, '/api/scaffolder/v2/actions');
if (!actions.json().some(a => a.id === 'krypton:secret:create')) {
  throw new Error('the scaffolder does not list krypton:secret:create');
}
log('the scaffolder lists krypton:secret:create');

await until('the template in the catalog', async () => {
  const res = await api(
    token,
    '/api/catalog/entities/by-name/template/default/krypton-create-secret',
  );
  return res.status === 200 ? true : undefined;
});

const password = `install-canary-${randomBytes(8).toString('hex')}`;
const created = await api(token, '/api/scaffolder/v2/tasks', {
  method: 'POST',
  body: JSON.stringify({
    templateRef: TEMPLATE,
    values: {
      namespace: NAMESPACE,
      name: NAME,
      description: 'Created by the install test',
      // What the frontend's Secret field leaves in the values; the value is in the secrets.
      password: '********',
    },
    secrets: { password },
  }),
});
if (created.status !== 201) {
  throw new Error(`creating the task: ${created.status} ${created.text}`);
}
const taskId = created.json().id;
const task = await until('the task to end', async () => {
  const res = await api(token, `/api/scaffolder/v2/tasks/${taskId}`);
  const body = res.json();
  return ['completed', 'failed'].includes(body.status) ? body : undefined;
});
const events = await api(token, `/api/scaffolder/v2/tasks/${taskId}/events`);
const messages = events
  .json()
  .filter(e => e.type === 'log')
  .map(e => e.body.message);
if (task.status !== 'completed') {
  throw new Error(`the task ${task.status}:\n${messages.join('\n')}`);
}
if (`${JSON.stringify(task)}${events.text}`.includes(password)) {
  throw new Error('the task or its events carry the value');
}

const secret = JSON.parse(
  execFileSync(
    process.env.INSTALL_TEST_KUBECTL,
    [
      '--kubeconfig',
      process.env.INSTALL_TEST_KUBECONFIG,
      '-n',
      NAMESPACE,
      'get',
      'secret',
      NAME,
      '-o',
      'json',
    ],
    { encoding: 'utf8' },
  ),
);
const stored = Buffer.from(secret.data?.PASSWORD ?? '', 'base64').toString();
if (stored !== password) throw new Error('the Secret does not hold the value');
const annotations = secret.metadata.annotations ?? {};
if (
  secret.metadata.labels?.['krypton.io/managed-by'] !== 'krypton' ||
  annotations['krypton.io/version'] !== '1' ||
  annotations['krypton.io/owners'] !== 'user:default/guest'
) {
  throw new Error(
    `the Secret is not managed by Krypton as expected: ${JSON.stringify(
      secret.metadata,
    )}`,
  );
}
log(
  `the template created ${NAMESPACE}/${NAME} as the guest (owner user:default/guest, version 1); ${messages.length} task log lines, none with the value`,
);
