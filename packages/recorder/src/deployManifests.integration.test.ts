import { ClusterAdmin } from '@krypton/kube-testenv';
import { recorderManifest as manifest } from './local/localRecorder';
import { describeLocalCluster } from './__testUtils__/recorderHarness';

// Deep reads of manifests whose shape each assertion states.
const recorderManifest = (file: string) =>
  manifest(file) as unknown as Array<Record<string, any>>;

// The manifests of deploy/recorder that the local runs do not apply (the Pods run as a local
// process there): each is checked by the real API server with a server-side dry run, so a field
// that Kubernetes would refuse fails here. The cert-manager objects need cert-manager's CRDs,
// which this control plane does not have; their apiVersion and kinds are checked as written.

const PATHS: Record<string, (ns?: string) => string> = {
  Deployment: ns => `/apis/apps/v1/namespaces/${ns}/deployments`,
  PodDisruptionBudget: ns =>
    `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`,
  Service: ns => `/api/v1/namespaces/${ns}/services`,
  MutatingWebhookConfiguration: () =>
    '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
};

describeLocalCluster('deploy/recorder', () => {
  const admin = new ClusterAdmin();
  afterAll(() => admin.close());

  it.each([
    ['deployment.yaml', ['Deployment', 'PodDisruptionBudget', 'Service']],
    ['webhook.yaml', ['MutatingWebhookConfiguration']],
  ])('%s is accepted by the API server as written', async (file, kinds) => {
    const objects = recorderManifest(file);
    expect(objects.map(o => o.kind)).toEqual(kinds);
    for (const object of objects) {
      const res = await admin.request({
        method: 'POST',
        path: PATHS[object.kind](object.metadata.namespace),
        query: { dryRun: 'All', fieldValidation: 'Strict' },
        body: object,
      });
      expect({ kind: object.kind, status: res.status }).toEqual({
        kind: object.kind,
        status: 201,
      });
    }
  });

  it('serves the Deployment on the Service and the webhook through it, under the ServiceAccount that is bound', () => {
    const [deployment, pdb, service] = recorderManifest('deployment.yaml');
    const [webhooks] = recorderManifest('webhook.yaml');
    const [account, , binding] = recorderManifest('service-account.yaml');
    const pod = deployment.spec.template;
    expect(deployment.spec.replicas).toBe(2);
    expect(pdb.spec.minAvailable).toBe(1);
    expect(pod.spec.serviceAccountName).toBe(account.metadata.name);
    expect(binding.subjects).toEqual([
      {
        kind: 'ServiceAccount',
        name: account.metadata.name,
        namespace: account.metadata.namespace,
      },
    ]);
    for (const selector of [
      pdb.spec.selector.matchLabels,
      service.spec.selector,
    ])
      expect(pod.metadata.labels).toMatchObject(selector);
    for (const webhook of webhooks.webhooks) {
      expect(webhook.clientConfig.service).toEqual({
        namespace: service.metadata.namespace,
        name: service.metadata.name,
        path: '/record',
        port: service.spec.ports[0].port,
      });
      expect(webhook.failurePolicy).toBe('Fail');
      expect(webhook.sideEffects).toBe('NoneOnDryRun');
    }
    const [certificate] = recorderManifest('certificate.yaml').filter(
      o => o.kind === 'Certificate',
    );
    expect(certificate.spec.secretName).toBe(
      pod.spec.volumes.find((v: { name: string }) => v.name === 'tls').secret
        .secretName,
    );
    expect(certificate.spec.dnsNames).toContain(
      `${service.metadata.name}.${service.metadata.namespace}.svc`,
    );
    expect(
      webhooks.metadata.annotations['cert-manager.io/inject-ca-from'],
    ).toBe(`${certificate.metadata.namespace}/${certificate.metadata.name}`);
  });
});
