import { registerMswTestHooks } from '@backstage/test-utils';
import {
  ChangeRequest,
  ChangeRequestDiff,
  SecretApproval,
} from '@krypton/core';
import { CHANGE_REQUEST_SIGNAL_CHANNEL } from '@krypton/plugin-krypton-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  alice,
  baseUrl,
  kryptonConfig,
  secretDto,
} from '../../__testUtils__/krypton';
import { REQUEST_ID, changeRequest } from '../../__testUtils__/changeRequests';
import { TestSignals, renderSecretPage } from '../../__testUtils__/secretPage';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;

const approval: SecretApproval = {
  requiredApprovals: 1,
  approvers: ['group:default/team-a'],
  allowSelfApproval: false,
  enforcement: 'hard',
  bypassGroups: [],
  expiresAfterHours: 24,
};

const bob = {
  userEntityRef: 'user:default/bob',
  ownershipEntityRefs: ['user:default/bob', 'group:default/team-a'],
};

/**
 * A covered demo/db: its summary carries the approval policy, its writes answer 202 with the
 * request, and its change requests are `state.requests`. Every write's body is kept, and the
 * `keys` of every comparison read (empty for a read without values) in `state.diffReads`.
 */
function serve(state: { requests: ChangeRequest[]; diffReads?: string[] }) {
  const bodies: Array<{ method: string; path: string; body: unknown }> = [];
  const keep = async (request: Request) => {
    const text = await request.text();
    bodies.push({
      method: request.method,
      path: new URL(request.url).pathname,
      body: text ? JSON.parse(text) : undefined,
    });
  };
  const { data: _d, binaryData: _b, ...meta } = secretDto();
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${secretUrl}/summary`, () =>
      HttpResponse.json({ ...meta, approval }),
    ),
    http.get(secretUrl, () => HttpResponse.json(secretDto())),
    http.get(`${secretUrl}/versions`, () => HttpResponse.json({ items: [] })),
    http.get(`${secretUrl}/consumers`, () =>
      HttpResponse.json({
        workloads: [
          {
            kind: 'Deployment',
            name: 'api',
            usages: [{ type: 'env' }],
            paused: false,
            onDelete: false,
          },
        ],
        discoveryFailures: [],
      }),
    ),
    http.put(secretUrl, async ({ request }) => {
      await keep(request);
      const made = changeRequest();
      state.requests = [made];
      return HttpResponse.json({ changeRequest: made }, { status: 202 });
    }),
    http.get(`${secretUrl}/change-requests`, () =>
      HttpResponse.json({ items: state.requests }),
    ),
    http.get(`${secretUrl}/change-requests/:id/diff`, ({ request }) => {
      const keys = new URL(request.url).searchParams.get('keys') ?? '';
      state.diffReads?.push(keys);
      const texts = keys.split(',').includes('password')
        ? { before: 'host=db\nuser=app\n', after: 'host=db\nuser=app2\n' }
        : {};
      const diff: ChangeRequestDiff = {
        resourceVersion: secretDto().resourceVersion,
        diff: {
          entries: [
            { key: 'cert', change: 'added', kind: 'binary' },
            { key: 'password', change: 'changed', kind: 'text', ...texts },
            { key: 'username', change: 'unchanged', kind: 'text' },
          ],
          valuesCompared: true,
          counts: {
            added: 1,
            removed: 0,
            changed: 1,
            unchanged: 1,
            present: 0,
          },
        },
      };
      return HttpResponse.json(diff);
    }),
    http.post(
      `${secretUrl}/change-requests/:id/:action`,
      async ({ request, params }) => {
        await keep(request);
        const after = changeRequest({
          state: params.action === 'approve' ? 'applied' : 'rejected',
          decisions: [
            {
              by: bob.userEntityRef,
              decision: params.action === 'approve' ? 'approve' : 'reject',
              comment: 'Checked with the DBA.',
              at: '2026-12-06T09:05:00.000Z',
            },
          ],
          appliedVersion: params.action === 'approve' ? 3 : undefined,
        });
        state.requests = [after];
        return HttpResponse.json(after);
      },
    ),
  );
  return bodies;
}

describe('change requests in the portal', () => {
  registerMswTestHooks(server);

  it('says that a covered Secret needs approval, and its Save sends the reason and shows the request it became', async () => {
    const state = { requests: [] as ChangeRequest[] };
    const bodies = serve(state);
    const user = userEvent.setup();
    await renderSecretPage();

    expect(
      await screen.findByText(
        /Save, Restore and Delete send a change request instead of writing: 1 approval from group:default\/team-a applies it\./,
      ),
    ).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Secret db' });
    const password = within(form).getByLabelText('Value of password');
    await user.clear(password);
    await user.type(password, 'new-password-2f9c');
    await user.type(
      within(form).getByLabelText('Why this change'),
      '  Rotate: the password was in a build log.  ',
    );
    await user.click(
      within(form).getByRole('button', { name: 'Request approval' }),
    );

    // Nothing was written: the form closes and the page points at the request.
    expect(await screen.findByText('Change requested')).toBeInTheDocument();
    expect(
      screen.getByText(
        `Nothing was written: change request ${REQUEST_ID} waits for 1 approval.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit Secret db' })).toBeNull();
    expect(bodies).toHaveLength(1);
    expect(bodies[0].body).toMatchObject({
      data: { password: 'new-password-2f9c', username: 'app' },
      changeReason: 'Rotate: the password was in a build log.',
    });

    await user.click(screen.getByRole('button', { name: 'Open Changes' }));
    const table = await screen.findByRole('table', {
      name: 'Change requests of db',
    });
    const row = within(table).getAllByRole('row')[1];
    expect(within(row).getByText('Pending')).toBeInTheDocument();
    expect(within(row).getByText('Replace values')).toBeInTheDocument();
    expect(within(row).getByText(alice.userEntityRef)).toBeInTheDocument();
    expect(within(row).getByText('0 of 1')).toBeInTheDocument();

    // The requester may withdraw, never approve or reject their own request.
    await user.click(
      within(row).getByRole('button', {
        name: `Review change request ${REQUEST_ID}`,
      }),
    );
    expect(
      await screen.findByText('Rotate: the password was in a build log.'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Withdraw' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('lets an approver review a request from its link, approve it with a comment, and see it applied', async () => {
    const state = { requests: [changeRequest()] };
    const bodies = serve(state);
    const user = userEvent.setup();
    await renderSecretPage(undefined, {
      path: `/krypton/secret/demo/db/changes?request=${REQUEST_ID}`,
      identity: bob,
    });

    expect(
      await screen.findByRole('heading', {
        name: `Change request ${REQUEST_ID}`,
      }),
    ).toBeInTheDocument();
    const facts = screen.getByLabelText('About this change request');
    expect(within(facts).getByText('Replace values')).toBeInTheDocument();
    expect(within(facts).getByText(alice.userEntityRef)).toBeInTheDocument();
    expect(
      within(facts).getByText('1 approval from group:default/team-a'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Rotate: the password was in a build log.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(
        'A restart after this change would touch 1 workload (Consumers tab).',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', {
      name: `Approve change request ${REQUEST_ID}?`,
    });
    await user.type(
      within(dialog).getByLabelText('Comment'),
      'Checked with the DBA.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));

    expect(
      await screen.findByText('Approved and applied.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        method: 'POST',
        path: `/api/krypton/namespaces/demo/secrets/db/change-requests/${REQUEST_ID}/approve`,
        body: { comment: 'Checked with the DBA.' },
      },
    ]);
    expect(await screen.findByText('Applied')).toBeInTheDocument();
    expect(
      screen.getByText('The replaced state is version 3.'),
    ).toBeInTheDocument();
  });

  it('compares the request with the live Secret key by key, and reads the changed values only when asked', async () => {
    const state = { requests: [changeRequest()], diffReads: [] as string[] };
    serve(state);
    const user = userEvent.setup();
    await renderSecretPage(undefined, {
      path: `/krypton/secret/demo/db/changes?request=${REQUEST_ID}`,
      identity: bob,
    });

    const table = await screen.findByRole('table', {
      name: 'Keys this change request changes',
    });
    const rows = within(table).getAllByRole('row');
    expect(
      rows.map(r => within(r).queryByRole('rowheader')?.textContent),
    ).toEqual([undefined, 'cert', 'password', 'username']);
    expect(within(rows[2]).getByText('Changed')).toBeInTheDocument();
    expect(within(rows[2]).getAllByText('not read')).toHaveLength(2);
    expect(
      screen.getByText('1 added, 0 removed, 1 changed, 1 unchanged.'),
    ).toBeInTheDocument();
    // Only the comparison without values was read.
    expect(state.diffReads).toEqual(['']);

    // One read of the text keys that change; each value still hidden until revealed.
    await user.click(
      screen.getByRole('button', { name: 'Read the changed values' }),
    );
    await waitFor(() => expect(state.diffReads).toEqual(['', 'password']));
    expect(
      screen.queryByRole('button', { name: 'Read the changed values' }),
    ).toBeNull();
    expect(screen.queryByText(/user=app2/)).toBeNull();
    await user.click(
      screen.getByRole('button', {
        name: 'Reveal the value of password in proposed',
      }),
    );
    expect(screen.getByText(/user=app2/)).toBeInTheDocument();
  });

  it('refuses a rejection without a comment before it is sent', async () => {
    const state = { requests: [changeRequest()] };
    const bodies = serve(state);
    const user = userEvent.setup();
    await renderSecretPage(undefined, {
      path: `/krypton/secret/demo/db/changes?request=${REQUEST_ID}`,
      identity: bob,
    });
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', {
      name: `Reject change request ${REQUEST_ID}?`,
    });
    const send = within(dialog).getByRole('button', { name: 'Reject' });
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Comment/), '   ');
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Comment/), 'Not now.');
    await user.click(send);
    expect(await screen.findByText('Rejected.')).toBeInTheDocument();
    expect(bodies.map(b => b.body)).toEqual(
      [{ comment: '   Not now.' }].map(() => ({ comment: 'Not now.' })),
    );
  });

  it('reloads the list when Krypton signals that one of its requests moved', async () => {
    const state = { requests: [changeRequest()] };
    serve(state);
    const signals = new TestSignals();
    await renderSecretPage(signals, {
      path: '/krypton/secret/demo/db/changes',
    });
    const table = await screen.findByRole('table', {
      name: 'Change requests of db',
    });
    expect(within(table).getByText('Pending')).toBeInTheDocument();

    state.requests = [changeRequest({ state: 'withdrawn' })];
    // Another Secret's request moves nothing here.
    signals.push(CHANGE_REQUEST_SIGNAL_CHANNEL, {
      cluster: 'local',
      namespace: 'demo',
      name: 'other',
      id: 'x',
      state: 'applied',
    });
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(within(table).getByText('Pending')).toBeInTheDocument();

    signals.push(CHANGE_REQUEST_SIGNAL_CHANNEL, {
      cluster: 'local',
      namespace: 'demo',
      name: 'db',
      id: REQUEST_ID,
      state: 'withdrawn',
    });
    await waitFor(() =>
      expect(
        within(
          screen.getByRole('table', { name: 'Change requests of db' }),
        ).getByText('Withdrawn'),
      ).toBeInTheDocument(),
    );
  });
});
