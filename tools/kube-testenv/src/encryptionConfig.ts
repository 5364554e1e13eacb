/**
 * An aescbc EncryptionConfiguration for Secrets with these keys (name, base64 of 32 bytes), the
 * first one primary, then identity so that objects written before encryption stay readable: the
 * text of the file that `startControlPlane({ encryptionConfig })` passes to the apiserver.
 */
export function aescbcEncryptionConfig(keys: Array<[string, string]>): string {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: EncryptionConfiguration',
    'resources:',
    '  - resources: [secrets]',
    '    providers:',
    '      - aescbc:',
    '          keys:',
    ...keys.flatMap(([name, secret]) => [
      `            - name: ${name}`,
      `              secret: ${secret}`,
    ]),
    '      - identity: {}',
  ].join('\n');
}
