import {
  KubeApiError,
  KubeObject,
  OWNER_SYNC_MESSAGES,
  ResourceType,
  SECRETS,
  SecretRecorder,
  messages,
  parseHistoryLimit,
} from '@krypton/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { headlampKrypton } from './engines';
import {
  CLUSTER,
  MANAGED,
  NS,
  encode,
  inMemoryKrypton,
} from './__testUtils__/inMemoryKrypton';
import { renderInHeadlamp } from './__testUtils__/renderInHeadlamp';
import { KryptonSecretSection } from './KryptonSecretSection';
import { WEB_CRYPTO_MISSING } from './messages';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function show(env: ReturnType<typeof inMemoryKrypton>, name: string) {
  const resource = await env.resource(name);
  const view = renderInHeadlamp(
    <KryptonSecretSection resource={resource} connect={() => env.krypton} />,
  );
  return { ...view, resource };
}

const table = () => screen.findByRole('table', { name: 'Versions' });
const rowOf = async (version: string) =>
  within(await table())
    .getByRole('rowheader', { name: new RegExp(`^${version}\\b`) })
    .closest('tr')!;

describe('KryptonSecretSection: the history states', () => {
  it('says the history is loading while the list is on its way, and the honest limits', async () => {
    const env = inMemoryKrypton({ listMetadata: () => new Promise(() => {}) });
    env.put('db', { password: 'p1' });
    await show(env, 'db');
    expect(
      await screen.findByRole('progressbar', { name: 'Loading the history…' }),
    ).toBeTruthy();
    expect(screen.getByText('Krypton')).toBeTruthy();
    expect(screen.getByText(/RBAC is the only gate/)).toBeTruthy();
    expect(
      screen.getByText(/access-rule annotations .* are advisory/),
    ).toBeTruthy();
    expect(
      screen.getByText(
        /Edits made outside Krypton.* are not captured in history/,
      ),
    ).toBeTruthy();
  });

  it('shows an empty history as empty, with no table', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await show(env, 'db');
    expect(await screen.findByText(/^No versions yet\./)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells a refusal of the user’s RBAC (403) apart from an empty history, and retries', async () => {
    let denied = true;
    const env = inMemoryKrypton({
      listMetadata: (...args) =>
        denied
          ? Promise.reject(new KubeApiError(403, 'Forbidden'))
          : env.gateway.listMetadata(...args),
    });
    env.put('db', { password: 'p1' });
    await show(env, 'db');
    expect(
      await screen.findByText('You may not read this history'),
    ).toBeTruthy();
    expect(screen.queryByText(/No versions yet/)).toBeNull();
    denied = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/^No versions yet\./)).toBeTruthy();
  });

  it('shows an unavailable history with Krypton’s fixed message, never as empty', async () => {
    const env = inMemoryKrypton({
      listMetadata: () =>
        Promise.reject(new KubeApiError(503, 'upstream secret text')),
    });
    env.put('db', { password: 'p1' });
    await show(env, 'db');
    expect(await screen.findByText('The history is unavailable')).toBeTruthy();
    // The history engine's fixed message for an unreadable history, not the upstream text.
    expect(
      screen.getByText(
        `The history could not be read: ${messages.historyUnreadable} An unavailable history is not an empty one.`,
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/upstream secret text/)).toBeNull();
    expect(screen.queryByText(/No versions yet/)).toBeNull();
  });

  it('lists the versions newest first, marks the one of the live revision, and foretells retention', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    await env.update('db', { password: 'p3' });
    await show(env, 'db');
    const rows = within(await table()).getAllByRole('rowheader');
    expect(rows.map(r => r.textContent)).toEqual(['v2', 'v1']);
    expect(within(await rowOf('v2')).getByText('headlamp')).toBeTruthy();
    expect(
      screen.getByText('Krypton keeps the last 20 versions.'),
    ).toBeTruthy();
  });

  it('shows when each version was saved as relative time, not as the raw timestamp', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    await show(env, 'db');
    const saved = within(await rowOf('v1')).getByRole('time');
    const at = saved.getAttribute('datetime') ?? '';
    expect(Number.isNaN(Date.parse(at))).toBe(false);
    expect(saved.textContent).toMatch(/^(now|\d+ seconds? ago)$/);
    expect(screen.queryByText(at)).toBeNull();
    expect(saved.getAttribute('tabindex')).toBe('0');
  });
});

describe('KryptonSecretSection: changes made outside Krypton', () => {
  it('names the writer and the tool of a version that the recorder kept', async () => {
    const env = inMemoryKrypton();
    const stored = env.put('db', { password: 'p1' });
    const edited = { ...stored, data: encode({ password: 'p2' }) };
    // The recorder's engine, as the API server would call it for a kubectl edit.
    const recorder = new SecretRecorder({
      gateway: env.gateway,
      annotationPrefix: 'krypton.io',
      historyLimit: parseHistoryLimit(undefined),
    });
    const verdict = await recorder.decide({
      uid: 'review-1',
      operation: 'UPDATE',
      namespace: NS,
      name: 'db',
      username: 'admin',
      dryRun: false,
      fieldManager: 'kubectl-edit',
      object: edited,
      oldObject: stored,
    });
    expect(verdict).toMatchObject({ allowed: true, outcome: 'recorded' });
    env.gateway.put(SECRETS, NS, {
      ...edited,
      metadata: {
        ...edited.metadata,
        annotations: { 'krypton.io/version': '2' },
      },
    });
    await show(env, 'db');
    expect(
      within(await rowOf('v1')).getByText('kubectl edit by admin'),
    ).toBeTruthy();
  });
});

describe('KryptonSecretSection: what restoring a version changes', () => {
  it('diffs a version against the live Secret with every value masked until revealed, key by key', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'old-pass', user: 'admin', gone: 'gone-value' });
    await env.update('db', {
      password: 'new-pass',
      user: 'admin',
      added: 'added-value',
    });
    const { container } = await show(env, 'db');
    fireEvent.click(
      within(await rowOf('v1')).getByRole('button', {
        name: 'Show what restoring v1 changes',
      }),
    );
    const diff = await screen.findByRole('table', {
      name: 'What restoring v1 changes',
    });
    expect(
      screen.getByText('1 added, 1 removed, 1 changed, 1 unchanged.'),
    ).toBeTruthy();
    const change = (key: string) =>
      within(diff).getByRole('rowheader', { name: key }).closest('tr')!
        .children[1].textContent;
    // From live to v1: restoring v1 brings "gone" back and removes "added".
    expect(change('gone')).toBe('added');
    expect(change('added')).toBe('removed');
    expect(change('password')).toBe('changed');
    expect(change('user')).toBe('unchanged');
    // No value is in the page until the user reveals that very one.
    for (const value of [
      'old-pass',
      'new-pass',
      'admin',
      'gone-value',
      'added-value',
    ])
      expect(container.textContent).not.toContain(value);
    fireEvent.click(
      within(diff).getByRole('button', { name: 'Reveal password (v1)' }),
    );
    expect(within(diff).getByText('old-pass')).toBeTruthy();
    expect(container.textContent).not.toContain('new-pass');
    fireEvent.click(
      within(diff).getByRole('button', { name: 'Hide password (v1)' }),
    );
    expect(container.textContent).not.toContain('old-pass');
  });

  it('never shows binary values, not even on reveal', async () => {
    const env = inMemoryKrypton();
    env.gateway.put(SECRETS, NS, {
      metadata: {
        name: 'certs',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: {
        'key.der': btoa('\u0000\u00ff\u0001'),
        note: encode({ n: 'a' }).n,
      },
    });
    await env.update('certs', { note: 'b' });
    await show(env, 'certs');
    fireEvent.click(
      within(await rowOf('v1')).getByRole('button', {
        name: 'Show what restoring v1 changes',
      }),
    );
    const diff = await screen.findByRole('table', {
      name: 'What restoring v1 changes',
    });
    const row = within(diff)
      .getByRole('rowheader', { name: 'key.der' })
      .closest('tr')!;
    expect(within(row).getAllByText('binary, not shown')).toHaveLength(2);
    expect(within(row).queryByRole('button')).toBeNull();
  });
});

describe('KryptonSecretSection: restore', () => {
  it('restores a version pinned to the live revision on screen, and says what it saved', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    const { resource } = await show(env, 'db');
    const pinned = (
      resource.jsonData as { metadata: { resourceVersion: string } }
    ).metadata.resourceVersion;
    fireEvent.click(
      within(await rowOf('v1')).getByRole('button', { name: 'Restore v1' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restore v1?' });
    expect(
      within(dialog).getByText(new RegExp(`revision ${pinned}\\b`)),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(
      await screen.findByText(
        'Restored v1. The values it replaced are saved as v2.',
      ),
    ).toBeTruthy();
    const live = await env.gateway.get(SECRETS, NS, 'db');
    expect(live.data).toEqual(encode({ password: 'p1' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('answers a stale revision with the 409 conflict state and changes nothing', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    await show(env, 'db');
    fireEvent.click(
      within(await rowOf('v1')).getByRole('button', { name: 'Restore v1' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restore v1?' });
    // Another client writes the Secret after the view read it.
    const current = await env.gateway.get(SECRETS, NS, 'db');
    env.gateway.put(SECRETS, NS, {
      ...current,
      data: encode({ password: 'kubectl' }),
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('The Secret changed')).toBeTruthy();
    expect(
      screen.getByText(
        new RegExp(`^${messages.staleRevision.replace(/[.]/g, '\\.')}`),
      ),
    ).toBeTruthy();
    const live = await env.gateway.get(SECRETS, NS, 'db');
    expect(live.data).toEqual(encode({ password: 'kubectl' }));
    expect(screen.queryByText(/^Restored/)).toBeNull();
  });

  it('does not offer restore on an immutable Secret, and says why', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    const current = await env.gateway.get(SECRETS, NS, 'db');
    env.gateway.put(SECRETS, NS, { ...current, immutable: true });
    await show(env, 'db');
    const restore = within(await rowOf('v1')).getByRole('button', {
      name: 'Restore v1',
    });
    expect((restore as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByText('Restore is not offered: the Secret is immutable.'),
    ).toBeTruthy();
  });
});

describe('KryptonSecretSection: a Secret whose changes need approval', () => {
  it('says so, offers no restore, and writes nothing; a Secret without the annotation restores', async () => {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    const current = await env.gateway.get(SECRETS, NS, 'db');
    env.gateway.put(SECRETS, NS, {
      ...current,
      metadata: {
        ...current.metadata,
        annotations: {
          ...current.metadata.annotations,
          'krypton.io/required-approvals': '2',
        },
      },
    });
    const view = await show(env, 'db');
    const block =
      "its krypton.io/required-approvals annotation asks 2 approvals for every change, which Krypton's portal requests and applies once approved; Headlamp writes at once, with your own identity.";
    expect(await screen.findByText('Changes need approval')).toBeTruthy();
    expect(
      screen.getByText(
        `Krypton in Headlamp does not restore this Secret: ${block}`,
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(/may also require approval by its own rules/),
    ).toBeTruthy();
    const restore = within(await rowOf('v1')).getByRole('button', {
      name: 'Restore v1',
    });
    expect((restore as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(`Restore is not offered: ${block}`)).toBeTruthy();
    fireEvent.click(restore);
    const live = await env.gateway.get(SECRETS, NS, 'db');
    expect(live.data).toEqual(encode({ password: 'p2' }));
    view.unmount();

    // The same Secret without the annotation offers its restore.
    env.gateway.put(SECRETS, NS, current);
    await show(env, 'db');
    const open = within(await rowOf('v1')).getByRole('button', {
      name: 'Restore v1',
    });
    expect((open as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText('Changes need approval')).toBeNull();
  });
});

describe('KryptonSecretSection: owned Secrets', () => {
  const esoLabels = {
    'krypton.io/managed-by': 'krypton',
    'reconcile.external-secrets.io/managed': 'true',
  };

  /** A managed Secret with a version, then owned as `metadata` says. */
  async function owned(metadata: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    managedFields?: unknown[];
  }) {
    const env = inMemoryKrypton();
    env.put('db', { password: 'p1' });
    await env.update('db', { password: 'p2' });
    const current = await env.gateway.get(SECRETS, NS, 'db');
    env.gateway.put(SECRETS, NS, {
      ...current,
      metadata: {
        ...current.metadata,
        labels: { ...current.metadata.labels, ...metadata.labels },
        annotations: {
          ...current.metadata.annotations,
          ...metadata.annotations,
        },
        ...(metadata.managedFields
          ? { managedFields: metadata.managedFields }
          : {}),
      },
    } as typeof current);
    return env;
  }

  it('shows the owner, what an edit comes to and what to do instead, and offers no restore', async () => {
    const env = await owned({ labels: esoLabels });
    await show(env, 'db');
    const banner = screen.getByRole('region', {
      name: 'Owned by External Secrets',
    });
    expect(banner.textContent).toContain(
      "What an edit here does: An edit here is undone by External Secrets: at once when the ExternalSecret's creationPolicy is Merge; with creationPolicy: Orphan it is kept until the ExternalSecret's next refresh.",
    );
    expect(banner.textContent).toContain(
      'What Krypton does: Krypton does not change it: it does not update, restore, adopt or delete a Secret that another tool owns.',
    );
    expect(banner.textContent).toContain(
      'What to do instead: Change the value in the external store, then have the ExternalSecret that writes db sync it now:',
    );
    expect(banner.querySelector('code')?.textContent).toBe(
      `kubectl annotate externalsecret <externalsecret> -n ${NS} force-sync=$(date +%s) --overwrite`,
    );

    const restore = within(await rowOf('v1')).getByRole('button', {
      name: 'Restore v1',
    }) as HTMLButtonElement;
    expect(restore.disabled).toBe(true);
    const reason =
      'Restore is not offered: External Secrets owns this Secret, and Krypton does not change a Secret that another tool owns.';
    expect(screen.getByText(reason)).toBeTruthy();
    expect(
      document.getElementById(restore.getAttribute('aria-describedby')!)
        ?.textContent,
    ).toBe(reason);
  });

  it('copies the command', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const env = await owned({
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: {
        'meta.helm.sh/release-name': 'web',
        'meta.helm.sh/release-namespace': 'apps',
      },
    });
    await show(env, 'db');
    const banner = screen.getByRole('region', { name: 'Owned by Helm' });
    expect(banner.textContent).toContain(
      'Owner: Release web in namespace apps',
    );
    fireEvent.click(
      within(banner).getByRole('button', { name: 'Copy the command' }),
    );
    expect(writeText).toHaveBeenCalledWith('helm upgrade web <chart> -n apps');
    expect(await within(banner).findByText('Copied')).toBeTruthy();
  });

  it('shows the owner of a Secret that Krypton does not manage too', async () => {
    const env = inMemoryKrypton();
    env.put(
      'tls',
      { 'tls.crt': 'c' },
      {
        metadata: {
          name: 'tls',
          annotations: { 'cert-manager.io/certificate-name': 'site' },
        },
      },
    );
    await show(env, 'tls');
    const banner = screen.getByRole('region', {
      name: 'Owned by cert-manager',
    });
    expect(banner.querySelector('code')?.textContent).toBe(
      `cmctl renew site -n ${NS}`,
    );
    expect(screen.getByText(/not managed by Krypton/)).toBeTruthy();
  });

  it('restores where a setting tells the owner to leave the Secret, saying so in the confirmation', async () => {
    const env = await owned({
      labels: {
        'kustomize.toolkit.fluxcd.io/name': 'apps',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      },
      annotations: { 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled' },
    });
    await show(env, 'db');
    expect(
      screen.getByRole('region', { name: 'Owned by Flux' }).textContent,
    ).toContain(
      'An edit here is kept: kustomize.toolkit.fluxcd.io/reconcile=disabled on this Secret tells Flux to leave it.',
    );
    expect(screen.queryByText(/^Restore is not offered/)).toBeNull();
    fireEvent.click(
      within(await rowOf('v1')).getByRole('button', { name: 'Restore v1' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restore v1?' });
    const banner = within(dialog).getByRole('region', {
      name: 'Owned by Flux',
    });
    expect(banner.textContent).toContain(
      'Krypton changes it like any other Secret.',
    );
    // Compact: the steps at the source are on the section, not in the confirmation.
    expect(banner.querySelector('code')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(
      await screen.findByText(
        'Restored v1. The values it replaced are saved as v2.',
      ),
    ).toBeTruthy();
    const live = await env.gateway.get(SECRETS, NS, 'db');
    expect(live.data).toEqual(encode({ password: 'p1' }));
  });

  it('warns that the next server-side apply of the data will fail on a field conflict', async () => {
    const env = await owned({
      managedFields: [
        {
          manager: 'argocd-controller',
          operation: 'Apply',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:password': {} } },
        },
      ],
    });
    await show(env, 'db');
    const banner = screen.getByRole('region', {
      name: 'Applied with server-side apply',
    });
    expect(banner.textContent).toBe(
      'Applied with server-side applyAfter a change of their keys here, the next server-side apply by argocd-controller of another value would fail on a field conflict with krypton, unless it forces.',
    );
  });
});

describe("KryptonSecretSection: External Secrets' sync", () => {
  const EXTERNAL_SECRETS: ResourceType<KubeObject> = {
    apiPath: '/apis/external-secrets.io/v1',
    plural: 'externalsecrets',
    kind: 'ExternalSecret',
  };
  const BUTTON = 'Sync from the store now';

  /** An ExternalSecret and the Secret it controls, managed by Krypton unless told otherwise. */
  function controlled(
    labels: Record<string, string> = MANAGED,
    override: Parameters<typeof inMemoryKrypton>[0] = {},
  ) {
    const env = inMemoryKrypton(override);
    const es = env.gateway.put(EXTERNAL_SECRETS, NS, {
      metadata: { name: 'db-source' },
    });
    env.put(
      'db',
      { password: 'p1' },
      {
        metadata: {
          name: 'db',
          labels: { ...labels },
          ownerReferences: [
            {
              apiVersion: 'external-secrets.io/v1',
              kind: 'ExternalSecret',
              name: 'db-source',
              uid: es.metadata.uid!,
              controller: true,
            },
          ],
        },
      },
    );
    return env;
  }

  const annotations = async (env: ReturnType<typeof inMemoryKrypton>) =>
    (await env.gateway.get(EXTERNAL_SECRETS, NS, 'db-source')).metadata
      .annotations;

  const banner = () =>
    screen.getByRole('region', { name: 'Owned by External Secrets' });

  it('offers a button that annotates the ExternalSecret and says what it asked', async () => {
    const env = controlled();
    await show(env, 'db');
    const button = await within(banner()).findByRole('button', {
      name: BUTTON,
    });
    // The offer is a dry run: nothing is written before the click.
    expect(await annotations(env)).toBeUndefined();
    fireEvent.click(button);
    const status = await within(banner()).findByText(
      /^External Secrets was asked to read ExternalSecret db-source from its store again/,
    );
    const value = (await annotations(env))?.['force-sync'];
    expect(value).toMatch(/^[0-9]+$/);
    expect(status.textContent).toBe(
      `External Secrets was asked to read ExternalSecret db-source from its store again (force-sync=${value}). The Secret changes once its controller has done so.`,
    );
    expect(status.getAttribute('role')).toBe('status');
    // The Secret itself is the controller's to write, not Krypton's.
    expect((await env.gateway.get(SECRETS, NS, 'db')).data).toEqual(
      encode({ password: 'p1' }),
    );
  });

  it('says why there is no button where RBAC refuses the dry run', async () => {
    const env = controlled();
    env.gateway.dryRunDenied.add('patch');
    await show(env, 'db');
    expect(
      await within(banner()).findByText(
        'Kubernetes does not let you patch the ExternalSecret db-source, so Krypton cannot ask it to sync for you; the command above needs that right too.',
      ),
    ).toBeTruthy();
    expect(within(banner()).queryByRole('button', { name: BUTTON })).toBeNull();
    expect(await annotations(env)).toBeUndefined();
  });

  it('shows why a request failed when Kubernetes refuses the patch itself', async () => {
    const env = controlled(MANAGED, {
      mergePatch: () => Promise.reject(new KubeApiError(403, 'Forbidden')),
    });
    await show(env, 'db');
    fireEvent.click(
      await within(banner()).findByRole('button', { name: BUTTON }),
    );
    const status = await within(banner()).findByText(
      `Krypton could not ask External Secrets to sync: ${OWNER_SYNC_MESSAGES.forbidden}`,
    );
    expect(status.getAttribute('role')).toBe('status');
    expect(await annotations(env)).toBeUndefined();
  });

  it('offers nothing for a Secret that Krypton does not manage, which its engines do not serve', async () => {
    const dryRunMergePatch = vi.fn();
    const env = controlled({}, { dryRunMergePatch });
    await show(env, 'db');
    expect(screen.getByText(/not managed by Krypton/)).toBeTruthy();
    // The offer reads the Secret's metadata, and its refusal (404) draws nothing: the command
    // is the last thing in the banner.
    await vi.waitFor(() =>
      expect(env.gateway.calls).toContain('getMetadata secrets db'),
    );
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(within(banner()).queryByRole('button', { name: BUTTON })).toBeNull();
    expect(banner().textContent).toMatch(/--overwriteCopy the command$/);
    expect(dryRunMergePatch).not.toHaveBeenCalled();
  });
});

describe('KryptonSecretSection: what it shows instead of a history', () => {
  it('says that Krypton keeps no history of a Secret it does not manage, without asking for one', async () => {
    const listMetadata = vi.fn();
    const env = inMemoryKrypton({ listMetadata });
    env.put('plain', { a: 'b' }, { metadata: { name: 'plain' } });
    await show(env, 'plain');
    expect(
      screen.getByText(
        /not managed by Krypton \(it has no krypton\.io\/managed-by=krypton label\)/,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(listMetadata).not.toHaveBeenCalled();
  });

  it('says whose a snapshot or a proposal is, with no history, owner banner or values of its own', async () => {
    const listMetadata = vi.fn();
    const env = inMemoryKrypton({ listMetadata });
    const stored = { ...MANAGED, 'krypton.io/kind': 'history' };
    env.put(
      'krypton-h-0123-v1',
      { a: 'b' },
      {
        metadata: { name: 'krypton-h-0123-v1', labels: stored },
      },
    );
    env.put(
      'krypton-p-0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f',
      { a: 'c' },
      {
        metadata: {
          name: 'krypton-p-0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f',
          labels: { ...MANAGED, 'krypton.io/kind': 'proposal' },
        },
      },
    );
    const snapshot = await show(env, 'krypton-h-0123-v1');
    expect(
      screen.getByText(/a version that Krypton saved of another Secret/),
    ).toBeTruthy();
    snapshot.unmount();
    await show(env, 'krypton-p-0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f');
    expect(
      screen.getByText(/the values that a change request proposes/),
    ).toBeTruthy();
    expect(screen.queryByText(/version that Krypton saved/)).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('Values')).toBeNull();
    expect(listMetadata).not.toHaveBeenCalled();
  });

  it('shows Krypton’s refusal in an insecure context, where there is no Web Crypto', async () => {
    vi.stubGlobal('crypto', {});
    const resource = {
      kind: 'Secret',
      cluster: CLUSTER,
      jsonData: { metadata: { name: 'db', namespace: NS, labels: {} } },
    };
    renderInHeadlamp(
      <KryptonSecretSection
        resource={resource}
        connect={cluster =>
          headlampKrypton({
            gateway: {} as never,
            cluster,
            actor: 'headlamp',
          })
        }
      />,
    );
    expect(screen.getByText('Krypton is unavailable here')).toBeTruthy();
    expect(screen.getByText(WEB_CRYPTO_MISSING)).toBeTruthy();
    expect(screen.queryByText(/RBAC is the only gate/)).toBeNull();
  });

  it('draws nothing for any other kind of object', () => {
    const { container } = renderInHeadlamp(
      <KryptonSecretSection
        resource={{ kind: 'ConfigMap', cluster: CLUSTER, jsonData: {} }}
        connect={() => {
          throw new Error('not to be called');
        }}
      />,
    );
    expect(container.textContent).toBe('');
  });
});
