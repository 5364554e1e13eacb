import {
  SecretDto,
  SecretSummary,
  SecretWriteAnswer,
  VersionDto,
  VersionSummary,
} from '@krypton/core';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { http, HttpResponse } from 'msw';
import { SetupServer } from 'msw/node';
import { useState } from 'react';
import {
  baseUrl,
  client,
  kryptonConfig,
  policy,
  secretDto,
} from '../../../__testUtils__/krypton';
import { ActionDecisions, SECRET_ACTIONS } from '../../access/decide';
import { carriesValues, summaryOf } from '../../writeAnswer';
import { HistoryTab } from '../HistoryTab';

export const location = { namespace: 'demo', name: 'db' };
export const prefix = `${baseUrl}/namespaces/demo/secrets/db`;

/** Values that must never reach the page before the user reveals them. */
export const V2_PASSWORD = 'old-password-two';
export const V1_PASSWORD = 'old-password-one';
export const LIVE_PASSWORD = 'hunter2-very-secret';

export function versionSummary(
  version: number,
  overrides: Partial<VersionSummary> = {},
): VersionSummary {
  return {
    version,
    snapshotAt: `2024-05-0${version}T10:00:00Z`,
    snapshotBy: `user:default/editor-${version}`,
    sourceType: 'Opaque',
    sourceResourceVersion: String(80 + version * 5),
    keys: ['password', 'username'],
    ...overrides,
  };
}

export function versionDto(
  version: number,
  values: Pick<VersionDto, 'data' | 'binaryData'>,
): VersionDto {
  const keys = [
    ...Object.keys(values.data),
    ...Object.keys(values.binaryData),
  ].sort();
  return {
    ...versionSummary(version, { keys }),
    cluster: 'local',
    namespace: 'demo',
    name: 'db',
    access: { owners: ['group:default/team-a'], editors: [], viewers: [] },
    keys,
    binaryKeys: Object.keys(values.binaryData).sort(),
    ...values,
  };
}

/** Live: version 3 at revision 100; version 2 changed the password; version 1 had a legacy key. */
export const VERSIONS: Record<number, VersionDto> = {
  2: versionDto(2, {
    data: { username: 'app', password: V2_PASSWORD },
    binaryData: { blob: 'AAEC/g==' },
  }),
  1: versionDto(1, {
    data: { username: 'app', password: V1_PASSWORD, legacy: 'kept' },
    binaryData: { blob: 'AAEC/g==' },
  }),
};

export const LIVE = secretDto(
  {},
  {
    data: { username: 'app', password: LIVE_PASSWORD },
    binaryData: { blob: 'AAEC/w==' },
  },
);

/** The summary route's answer for a Secret: its metadata, and the policy allowing everything. */
export function toSummary(dto: SecretDto): SecretSummary {
  const { data: _data, binaryData: _binary, ...meta } = dto;
  return { policy: policy(), ...meta };
}

export function allowAll(
  overrides: Partial<ActionDecisions> = {},
): ActionDecisions {
  const out = {} as ActionDecisions;
  for (const action of SECRET_ACTIONS) out[action] = { allowed: true };
  return { ...out, ...overrides };
}

/** The app's routes that the tab links to: "snapshot by" is a catalog entity link. */
export const historyRoutes = {
  mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
};

export interface Calls {
  lists: number;
  versionReads: number[];
  restores: unknown[];
  liveReads: number;
}

/**
 * Serves the history routes from mutable state, counting requests. Change `state` between steps
 * to make the next answers differ.
 */
export function serveHistory(server: Pick<SetupServer, 'use'>) {
  const state = {
    list: (): Response | Promise<Response> =>
      HttpResponse.json({
        items: [versionSummary(2), versionSummary(1)],
      }),
    live: (): Response | Promise<Response> => HttpResponse.json(LIVE),
    restore: (): Response | Promise<Response> =>
      HttpResponse.json({ ...LIVE, resourceVersion: '101', version: 4 }),
    config: (): Response | Promise<Response> =>
      HttpResponse.json(kryptonConfig()),
    /** The versions that the version route serves. */
    versions: VERSIONS,
  };
  const calls: Calls = {
    lists: 0,
    versionReads: [],
    restores: [],
    liveReads: 0,
  };
  server.use(
    http.get(`${prefix}/versions`, () => {
      calls.lists += 1;
      return state.list();
    }),
    http.get(`${prefix}/versions/:version`, ({ params }) => {
      const version = Number(params.version);
      calls.versionReads.push(version);
      const dto = state.versions[version];
      return dto
        ? HttpResponse.json(dto)
        : HttpResponse.json(
            { error: "That version is not in this Secret's history." },
            { status: 404 },
          );
    }),
    http.post(`${prefix}/restore`, async ({ request }) => {
      calls.restores.push(await request.json());
      return state.restore();
    }),
    http.get(prefix, () => {
      calls.liveReads += 1;
      return state.live();
    }),
    http.get(`${baseUrl}/config`, () => state.config()),
  );
  return { state, calls };
}

export interface HarnessProps {
  initial?: SecretDto;
  /** Pass the summary without values, as for a user who may not reveal them. */
  summaryOnly?: boolean;
  /** No summary and no decisions: the live Secret could not be read. */
  noSummary?: boolean;
  decisions?: ActionDecisions;
  startRestore?: boolean;
  onRestored?: (secret: SecretWriteAnswer) => void;
  /**
   * As the detail view holds them: no live values until the tab asks for them (loadLive), then
   * read through the real client.
   */
  onDemand?: boolean;
}

/** The detail view's part: holds the live Secret and reloads it through the real client. */
export function Harness(props: HarnessProps) {
  const [live, setLive] = useState<SecretWriteAnswer>(props.initial ?? LIVE);
  const [asked, setAsked] = useState(!props.onDemand);
  const [liveLoading, setLiveLoading] = useState(false);
  const reloadLive = async () => {
    setLive(await client.getSecret(location));
  };
  const loadLive = () => {
    setLiveLoading(true);
    client.getSecret(location).then(secret => {
      setLive(secret);
      setAsked(true);
      setLiveLoading(false);
    });
  };
  // A restore answered without values leaves none to compare with, as in the detail view.
  const values = carriesValues(live) && asked ? live : undefined;
  return (
    <HistoryTab
      location={location}
      summary={props.noSummary ? undefined : summaryOf(live)}
      live={props.noSummary || props.summaryOnly ? undefined : values}
      liveLoading={liveLoading}
      loadLive={props.onDemand ? loadLive : undefined}
      decisions={props.noSummary ? undefined : props.decisions ?? allowAll()}
      reloadLive={reloadLive}
      onRestored={secret => {
        setLive(secret);
        props.onRestored?.(secret);
      }}
      startRestore={props.startRestore}
    />
  );
}
