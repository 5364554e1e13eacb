import { SignalApi, signalApiRef } from '@backstage/plugin-signals-react';
import { configApiRef, identityApiRef } from '@backstage/core-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import {
  MockPermissionApi,
  TestApiProvider,
  mockApis,
} from '@backstage/test-utils';
import {
  KryptonConfigDto,
  SecretAction,
  SecretDto,
  SecretListItem,
  SecretSummary,
} from '@krypton/core';
import { ReactNode } from 'react';
import { kryptonApiRef } from '../api/KryptonApi';
import { KryptonClient } from '../api/KryptonClient';
import { permitAll } from '../components/access/decide';

/** Where the msw handlers answer: the real client, over fetch, against this base URL. */
export const baseUrl = 'http://backstage.test/api/krypton';

export const client = new KryptonClient({
  discoveryApi: { getBaseUrl: async () => baseUrl },
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});

/**
 * The permission policy's answers as the summary route carries them: every action allowed but
 * those named.
 */
export function policy(
  ...denied: SecretAction[]
): Record<SecretAction, boolean> {
  const answers = permitAll(true);
  for (const action of denied) answers[action] = false;
  return answers;
}

export function summary(overrides: Partial<SecretSummary> = {}): SecretSummary {
  return {
    cluster: 'local',
    namespace: 'demo',
    name: 'db',
    uid: 'uid-db',
    resourceVersion: '100',
    type: 'Opaque',
    immutable: false,
    managed: true,
    version: 3,
    description: 'Database credentials',
    access: {
      owners: ['group:default/team-a'],
      editors: [],
      viewers: [],
    },
    keys: ['password', 'username'],
    binaryKeys: [],
    // Of secretDto's default values.
    keySizes: { password: 19, username: 3 },
    policy: policy(),
    ...overrides,
  };
}

/**
 * A Secret as a list answers it: the summary's metadata with a key count, and neither key names,
 * binary keys nor immutability (a list never reads the full object).
 */
export function listItem(
  overrides: Partial<SecretListItem> = {},
): SecretListItem {
  const {
    keys,
    binaryKeys: _binaryKeys,
    immutable: _immutable,
    policy: _policy,
    ...view
  } = summary();
  return { ...view, keyCount: keys.length, ...overrides };
}

export function secretDto(
  overrides: Partial<SecretDto> = {},
  values: Pick<SecretDto, 'data' | 'binaryData'> = {
    data: { username: 'app', password: 'hunter2-very-secret' },
    binaryData: {},
  },
): SecretDto {
  return {
    ...summary(overrides),
    ...values,
    keys: [...Object.keys(values.data), ...Object.keys(values.binaryData)],
    binaryKeys: Object.keys(values.binaryData),
  };
}

export function kryptonConfig(
  overrides: Partial<KryptonConfigDto> = {},
): KryptonConfigDto {
  return {
    annotationPrefix: 'krypton.io',
    identityMode: 'impersonation',
    clusters: ['local'],
    defaultCluster: 'local',
    historyLimit: 20,
    restartEnabled: false,
    managedOnly: true,
    maxSecretBytes: 1048576,
    previewLimit: 131072,
    ...overrides,
  };
}

/** Alice, a member of team-a. */
export const alice = {
  userEntityRef: 'user:default/alice',
  ownershipEntityRefs: ['user:default/alice', 'group:default/team-a'],
};

/** App config for a test, in the config API's own JSON type. */
export type TestConfig = NonNullable<
  Parameters<typeof mockApis.config>[0]
>['data'];

export interface ApiOptions {
  /** The permission policy: a fixed answer, or one per permission name and resource. */
  authorize?: (permission: string, resourceRef?: string) => boolean;
  identity?: typeof alice;
  config?: TestConfig;
  /** The signals plugin's API; without it the app has no signals, as without the plugin. */
  signals?: SignalApi;
}

/** The APIs Krypton's components use, with the real client against msw. */
export function KryptonApis(props: ApiOptions & { children: ReactNode }) {
  const authorize = props.authorize ?? (() => true);
  return (
    <TestApiProvider
      apis={[
        [kryptonApiRef, client],
        [identityApiRef, mockApis.identity(props.identity ?? alice)],
        [configApiRef, mockApis.config({ data: props.config ?? {} })],
        [
          permissionApiRef,
          new MockPermissionApi(request =>
            authorize(request.permission.name, request.resourceRef)
              ? AuthorizeResult.ALLOW
              : AuthorizeResult.DENY,
          ),
        ],
        ...(props.signals
          ? [[signalApiRef, props.signals] as [typeof signalApiRef, SignalApi]]
          : []),
      ]}
    >
      {props.children}
    </TestApiProvider>
  );
}
