#!/usr/bin/env node
// The demo's stand-in for the controllers and the kubelet, which the local control plane does not
// run: gives each workload of the demo namespace pods, as API objects owned as a controller owns
// them (a Deployment's through a ReplicaSet), running since now, and the workload a status.
// Krypton's Consumers tab then shows which version of each Secret every pod holds.
//
//   node examples/demo-pods.mjs <kubectl> <kubeconfig> [namespace]
//
// Idempotent: a workload that already has its ReplicaSet or pods is left as it is.
import { execFileSync } from 'node:child_process';

const [kubectl, kubeconfig, namespace = 'krypton-demo'] = process.argv.slice(2);
if (!kubectl || !kubeconfig) {
  process.stderr.write(
    'usage: demo-pods.mjs <kubectl> <kubeconfig> [namespace]\n',
  );
  process.exit(2);
}

const run = (args, input) =>
  execFileSync(
    kubectl,
    ['--kubeconfig', kubeconfig, '-n', namespace, ...args],
    {
      input,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
const getJson = args => JSON.parse(run([...args, '-o', 'json']));
const owner = (kind, object) => ({
  apiVersion: 'apps/v1',
  kind,
  name: object.metadata.name,
  uid: object.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});

/** Creates the objects in one request, and answers them as stored. */
function createAll(resource, objects) {
  if (objects.length === 0) return [];
  run(
    ['create', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  );
  const names = new Set(objects.map(o => o.metadata.name));
  return getJson(['get', resource]).items.filter(o =>
    names.has(o.metadata.name),
  );
}

const now = `${new Date().toISOString().slice(0, 19)}Z`;
const existing = new Set(
  getJson(['get', 'pods,replicasets']).items.map(
    o => `${o.kind}/${o.metadata.name}`,
  ),
);

// Deployments run through a ReplicaSet of their own.
const deployments = getJson(['get', 'deployments']).items;
const replicaSets = createAll(
  'replicasets',
  deployments
    .filter(d => !existing.has(`ReplicaSet/${d.metadata.name}-demo`))
    .map(d => {
      const labels = {
        ...d.spec.template.metadata?.labels,
        'pod-template-hash': 'demo',
      };
      return {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `${d.metadata.name}-demo`,
          labels,
          ownerReferences: [owner('Deployment', d)],
        },
        spec: {
          replicas: d.spec.replicas ?? 1,
          selector: { matchLabels: labels },
          template: {
            ...d.spec.template,
            metadata: { ...d.spec.template.metadata, labels },
          },
        },
      };
    }),
);

const controllers = [
  ...replicaSets.map(rs => ({
    kind: 'ReplicaSet',
    object: rs,
    count: rs.spec.replicas,
  })),
  ...getJson(['get', 'statefulsets']).items.map(s => ({
    kind: 'StatefulSet',
    object: s,
    count: s.spec.replicas ?? 1,
  })),
  // A DaemonSet runs one pod per node: two nodes here.
  ...getJson(['get', 'daemonsets']).items.map(d => ({
    kind: 'DaemonSet',
    object: d,
    count: 2,
  })),
];

const pods = [];
for (const { kind, object, count } of controllers) {
  for (let i = 0; i < count; i++) {
    const name = `${object.metadata.name}-${i}`;
    if (existing.has(`Pod/${name}`)) continue;
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: object.spec.template.metadata?.labels ?? {},
        ownerReferences: [owner(kind, object)],
      },
      spec: object.spec.template.spec,
    });
  }
}
const created = createAll('pods', pods);

const containerStatus = c => ({
  name: c.name,
  image: c.image,
  imageID: '',
  ready: true,
  restartCount: 0,
  started: true,
  state: { running: { startedAt: now } },
});
for (const pod of created) {
  const status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: pod.spec.containers.map(containerStatus),
  };
  if (pod.spec.initContainers) {
    status.initContainerStatuses = pod.spec.initContainers.map(c => ({
      ...containerStatus(c),
      started: false,
      state: {
        terminated: {
          startedAt: now,
          finishedAt: now,
          exitCode: 0,
          reason: 'Completed',
        },
      },
    }));
  }
  run([
    'patch',
    'pod',
    pod.metadata.name,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}

// The workloads report their rollouts done, as their controllers would.
for (const d of deployments) {
  const n = d.spec.replicas ?? 1;
  const status = {
    observedGeneration: d.metadata.generation,
    replicas: n,
    updatedReplicas: n,
    readyReplicas: n,
    availableReplicas: n,
  };
  run([
    'patch',
    'deployment',
    d.metadata.name,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}
for (const { kind, object, count } of controllers) {
  if (kind === 'ReplicaSet') continue;
  const status =
    kind === 'StatefulSet'
      ? {
          observedGeneration: object.metadata.generation,
          replicas: count,
          updatedReplicas: count,
          readyReplicas: count,
          availableReplicas: count,
          currentReplicas: count,
        }
      : {
          observedGeneration: object.metadata.generation,
          currentNumberScheduled: count,
          numberMisscheduled: 0,
          desiredNumberScheduled: count,
          numberReady: count,
          updatedNumberScheduled: count,
          numberAvailable: count,
        };
  run([
    'patch',
    kind.toLowerCase(),
    object.metadata.name,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}
process.stdout.write(`demo pods: ${created.length} created in ${namespace}\n`);
