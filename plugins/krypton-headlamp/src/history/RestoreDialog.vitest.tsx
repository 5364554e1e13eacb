import { SecretOwner } from '@krypton/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInHeadlamp } from '../__testUtils__/renderInHeadlamp';
import { RestoreDialog } from './RestoreDialog';

const argo: SecretOwner = {
  tool: 'argocd',
  kind: 'Application',
  name: 'shop',
  outcome: 'reverted-at-sync',
  evidence: ['argocd.argoproj.io/tracking-id'],
  edits: 'refused',
};

function render(props: {
  owner?: SecretOwner;
  dataAppliedBy?: string[];
  block?: string;
}) {
  const onConfirm = vi.fn();
  renderInHeadlamp(
    <RestoreDialog
      version={2}
      resourceVersion="41"
      running={false}
      secret={{
        namespace: 'team-a',
        name: 'db',
        owner: props.owner,
        dataAppliedBy: props.dataAppliedBy,
      }}
      block={props.block}
      onCancel={() => {}}
      onConfirm={onConfirm}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Restore v2?' });
  const confirm = within(dialog).getByRole('button', {
    name: 'Restore',
  }) as HTMLButtonElement;
  return { dialog, confirm, onConfirm };
}

describe('RestoreDialog', () => {
  it('turns Restore off with the reason when the Secret becomes owned under the open dialog', () => {
    const reason =
      'Argo CD owns this Secret, and Krypton does not change a Secret that another tool owns.';
    const { dialog, confirm, onConfirm } = render({
      owner: argo,
      block: reason,
    });
    expect(
      within(dialog).getByRole('region', { name: 'Owned by Argo CD' })
        .textContent,
    ).toContain(
      'An edit here is undone by Argo CD: at once where the Application self-heals, otherwise at its next sync.',
    );
    expect(confirm.disabled).toBe(true);
    expect(
      document.getElementById(confirm.getAttribute('aria-describedby')!)
        ?.textContent,
    ).toBe(`Restore is not offered: ${reason}`);
    fireEvent.click(confirm);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('words an owner that asks for a reason as refused here, where there is no field for one', () => {
    const { dialog } = render({
      owner: { ...argo, edits: 'reason-required' },
    });
    expect(
      within(dialog).getByRole('region', { name: 'Owned by Argo CD' })
        .textContent,
    ).toContain(
      'What Krypton does: Argo CD owns this Secret, and changes of it need a reason, which Krypton in Headlamp does not ask for: change it at its source, or through the Krypton portal.',
    );
  });

  it('shows nothing more for a Secret that nothing claims, and restores', () => {
    const { dialog, confirm, onConfirm } = render({});
    expect(within(dialog).queryByRole('region')).toBeNull();
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
