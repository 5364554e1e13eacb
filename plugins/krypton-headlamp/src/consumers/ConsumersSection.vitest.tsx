import {
  DAEMON_SETS,
  DEPLOYMENTS,
  KubeApiError,
  RESTART_MESSAGES,
  RESTART_NOTE,
  ResourceType,
  STATEFUL_SETS,
  Workload,
  messages,
} from '@krypton/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { KryptonSecretSection } from '../KryptonSecretSection';
import { NS, inMemoryKrypton } from '../__testUtils__/inMemoryKrypton';
import { renderInHeadlamp } from '../__testUtils__/renderInHeadlamp';

type Env = ReturnType<typeof inMemoryKrypton>;

/** A workload whose pod template reads the Secret `db` through envFrom, or not at all. */
function workload(
  env: Env,
  type: ResourceType<Workload>,
  name: string,
  secret = 'db',
) {
  env.gateway.put(type, NS, {
    metadata: { name },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'app', envFrom: [{ secretRef: { name: secret } }] },
          ],
        },
      },
    },
  });
}

async function show(env: Env) {
  env.put('db', { password: 'p1' });
  const resource = await env.resource('db');
  return renderInHeadlamp(
    <KryptonSecretSection resource={resource} connect={() => env.krypton} />,
  );
}

const part = () => screen.getByRole('region', { name: 'Consumers' });
const workloadTable = () =>
  within(part()).findByRole('table', {
    name: 'Workloads that use this Secret',
  });
const restartedAt = async (
  env: Env,
  type: ResourceType<Workload>,
  name: string,
) => {
  const object = await env.gateway.get(type, NS, name);
  const template = (object.spec as { template: { metadata?: unknown } })
    .template.metadata as { annotations?: Record<string, string> } | undefined;
  return template?.annotations?.['krypton.io/restarted-at'];
};

async function restart() {
  fireEvent.click(
    within(part()).getByRole('button', { name: 'Restart consumers' }),
  );
  const dialog = await screen.findByRole('dialog', {
    name: 'Restart the consumers of db?',
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Restart' }));
  return within(part()).findByRole('table', { name: 'Restart result' });
}

const outcomeOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('rowheader', { name }).closest('tr')!.children[2]
    .textContent;

describe('ConsumersSection: the states of the dry run', () => {
  it('says the workloads are loading while the lists are on their way', async () => {
    const env = inMemoryKrypton({ list: () => new Promise(() => {}) });
    await show(env);
    expect(
      await within(part()).findByRole('progressbar', {
        name: 'Loading the workloads that use this Secret…',
      }),
    ).toBeTruthy();
    expect(
      (
        within(part()).getByRole('button', {
          name: 'Restart consumers',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
  });

  it('says no workload references the Secret, and offers no restart', async () => {
    const env = inMemoryKrypton();
    workload(env, DEPLOYMENTS, 'unrelated', 'other');
    await show(env);
    expect(
      await within(part()).findByText(
        `No workload references this Secret: no Deployment, StatefulSet or DaemonSet in ${NS} uses it.`,
      ),
    ).toBeTruthy();
    expect(within(part()).queryByRole('table')).toBeNull();
    const button = within(part()).getByRole('button', {
      name: 'Restart consumers',
    }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('lists the workloads that reference the Secret, with how they read it', async () => {
    const env = inMemoryKrypton();
    workload(env, DEPLOYMENTS, 'api');
    workload(env, STATEFUL_SETS, 'worker');
    workload(env, DEPLOYMENTS, 'unrelated', 'other');
    env.gateway.put(DAEMON_SETS, NS, {
      metadata: { name: 'agent' },
      spec: {
        updateStrategy: { type: 'OnDelete' },
        template: {
          spec: {
            containers: [{ name: 'agent' }],
            volumes: [{ name: 'creds', secret: { secretName: 'db' } }],
          },
        },
      },
    });
    await show(env);
    const table = await workloadTable();
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map(r => r.textContent),
    ).toEqual(['agent', 'api', 'worker']);
    const row = (name: string) =>
      within(table).getByRole('rowheader', { name }).closest('tr')!;
    expect(within(row('api')).getByText('envFrom in app')).toBeTruthy();
    expect(within(row('agent')).getByText('volume creds')).toBeTruthy();
    expect(
      within(row('agent')).getByText(
        'OnDelete: pods roll only when they are deleted',
      ),
    ).toBeTruthy();
  });

  it('tells a refusal of the user’s RBAC to list workloads apart from none, and retries', async () => {
    let denied = true;
    const env = inMemoryKrypton({
      list: (...args) =>
        denied
          ? Promise.reject(new KubeApiError(403, 'Forbidden'))
          : env.gateway.list(...args),
    });
    workload(env, DEPLOYMENTS, 'api');
    await show(env);
    expect(
      await within(part()).findByText('You may not list the workloads'),
    ).toBeTruthy();
    expect(
      within(part()).getByText(
        /refused listing Deployment, StatefulSet, DaemonSet in this namespace/,
      ),
    ).toBeTruthy();
    expect(within(part()).queryByText(/No workload references/)).toBeNull();
    denied = false;
    fireEvent.click(within(part()).getByRole('button', { name: 'Retry' }));
    expect(
      within(await workloadTable()).getByRole('rowheader', { name: 'api' }),
    ).toBeTruthy();
  });

  it('shows unavailable lists with Krypton’s fixed message, never as empty', async () => {
    const env = inMemoryKrypton({
      list: () => Promise.reject(new KubeApiError(503, 'upstream text')),
    });
    await show(env);
    expect(
      await within(part()).findByText('The workloads are unavailable'),
    ).toBeTruthy();
    expect(
      within(part()).getByText(
        `The workloads could not be listed: ${messages.unavailable} An unavailable list is not an empty one.`,
      ),
    ).toBeTruthy();
    expect(within(part()).queryByText(/upstream text/)).toBeNull();
    expect(within(part()).queryByText(/No workload references/)).toBeNull();
  });
});

describe('ConsumersSection: restart consumers', () => {
  it('restarts every consumer after confirmation, and reports each as requested', async () => {
    const env = inMemoryKrypton();
    workload(env, DEPLOYMENTS, 'api');
    workload(env, DAEMON_SETS, 'agent');
    workload(env, DEPLOYMENTS, 'unrelated', 'other');
    await show(env);
    await workloadTable();
    fireEvent.click(
      within(part()).getByRole('button', { name: 'Restart consumers' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Restart the consumers of db?',
    });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map(i => i.textContent),
    ).toEqual(['DaemonSet/agent', 'Deployment/api']);
    // Nothing is patched before the confirmation.
    expect(await restartedAt(env, DEPLOYMENTS, 'api')).toBeUndefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restart' }));
    const result = await within(part()).findByRole('table', {
      name: 'Restart result',
    });
    expect(within(part()).getByText('Rollout requested')).toBeTruthy();
    expect(
      within(part()).getByText(
        'Rollout requested for 2 of 2 matched workloads.',
      ),
    ).toBeTruthy();
    expect(within(part()).getByText(RESTART_NOTE)).toBeTruthy();
    expect(outcomeOf(result, 'api')).toBe('restart requested');
    expect(outcomeOf(result, 'agent')).toBe('restart requested');
    expect(await restartedAt(env, DEPLOYMENTS, 'api')).toBeTruthy();
    expect(await restartedAt(env, DAEMON_SETS, 'agent')).toBeTruthy();
    expect(await restartedAt(env, DEPLOYMENTS, 'unrelated')).toBeUndefined();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a partial result where RBAC lets the user patch only some kinds', async () => {
    const env = inMemoryKrypton({
      patch: (type, ...rest) =>
        type === STATEFUL_SETS
          ? Promise.reject(new KubeApiError(403, 'Forbidden'))
          : env.gateway.patch(type, ...rest),
    });
    workload(env, DEPLOYMENTS, 'api');
    workload(env, STATEFUL_SETS, 'worker');
    await show(env);
    await workloadTable();
    const result = await restart();
    expect(within(part()).getByText('Rollout partly requested')).toBeTruthy();
    expect(
      within(part()).getByText(
        'Rollout requested for 1 of 2 matched workloads. 1 patch request failed.',
      ),
    ).toBeTruthy();
    expect(outcomeOf(result, 'api')).toBe('restart requested');
    expect(outcomeOf(result, 'worker')).toBe('forbidden by your RBAC');
    const worker = within(result)
      .getByRole('rowheader', { name: 'worker' })
      .closest('tr')!;
    expect(within(worker).getByText('forbidden')).toBeTruthy();
    expect(within(worker).getByText('403')).toBeTruthy();
    expect(within(worker).getByText(RESTART_MESSAGES.forbidden)).toBeTruthy();
    expect(await restartedAt(env, DEPLOYMENTS, 'api')).toBeTruthy();
    expect(await restartedAt(env, STATEFUL_SETS, 'worker')).toBeUndefined();
  });
});
