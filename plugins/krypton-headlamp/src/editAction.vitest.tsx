import { DefaultHeaderAction } from '@kinvolk/headlamp-plugin/lib/redux/actionButtonsSlice';
import { screen } from '@testing-library/react';
import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInHeadlamp } from './__testUtils__/renderInHeadlamp';
import { EDIT_ACTION, editActionOnSecrets } from './editAction';
import { OWNED_EDIT_ACTION } from './owner/OwnedEditAction';

const actions = [
  { id: DefaultHeaderAction.VIEW },
  { id: DefaultHeaderAction.EDIT },
  { id: DefaultHeaderAction.DELETE },
  { id: 'some-plugin.action' },
];

const secret = (
  labels?: Record<string, string>,
  kind = 'Secret',
  annotations?: Record<string, string>,
) => ({
  kind,
  cluster: 'test',
  jsonData: {
    kind,
    metadata: { name: 'db', namespace: 'team-a', labels, annotations },
  },
});

/** The text of the elements that describe an element (jsdom has no accessibility tree). */
function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map(id => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

const helmLabels = { 'app.kubernetes.io/managed-by': 'Helm' };
const helmAnnotations = { 'meta.helm.sh/release-name': 'web' };

describe('editActionOnSecrets', () => {
  it("names Headlamp's own Edit action", () => {
    expect(EDIT_ACTION).toBe(DefaultHeaderAction.EDIT);
  });

  it('removes only Edit on a Krypton-managed Secret', () => {
    expect(
      editActionOnSecrets(
        secret({ 'krypton.io/managed-by': 'krypton' }),
        actions,
      ),
    ).toEqual(actions.filter(a => a.id !== DefaultHeaderAction.EDIT));
  });

  it('keeps every action on unmanaged Secrets, other objects and list views', () => {
    expect(editActionOnSecrets(secret(), actions)).toBe(actions);
    expect(
      editActionOnSecrets(
        secret({ 'krypton.io/managed-by': 'someone-else' }),
        actions,
      ),
    ).toBe(actions);
    expect(
      editActionOnSecrets(
        secret({ 'krypton.io/managed-by': 'krypton' }, 'ConfigMap'),
        actions,
      ),
    ).toBe(actions);
    // A ConfigMap that Helm installed is not Krypton's business either.
    expect(
      editActionOnSecrets(
        secret(helmLabels, 'ConfigMap', helmAnnotations),
        actions,
      ),
    ).toBe(actions);
    expect(editActionOnSecrets(null, actions)).toBe(actions);
  });

  it("puts Edit off, with the owner's reason, on a managed Secret that another tool owns", async () => {
    const processed = editActionOnSecrets(
      secret(
        { ...helmLabels, 'krypton.io/managed-by': 'krypton' },
        'Secret',
        helmAnnotations,
      ),
      actions,
    );
    expect(processed.map(a => a.id)).toEqual([
      DefaultHeaderAction.VIEW,
      OWNED_EDIT_ACTION,
      DefaultHeaderAction.DELETE,
      'some-plugin.action',
    ]);
    const owned = processed[1];
    if (!('action' in owned) || !isValidElement(owned.action))
      throw new Error('the owned Edit is an element');
    renderInHeadlamp(owned.action);
    const edit = screen.getByRole('button', {
      name: 'Edit',
    }) as HTMLButtonElement;
    expect(edit.disabled).toBe(true);
    expect(describedBy(edit)).toBe(
      "Headlamp's Edit is off on this Secret: Helm owns this Secret, and Krypton does not change a Secret that another tool owns. An edit here would not last.",
    );
  });

  it("keeps Headlamp's Edit on a Secret that another tool owns and Krypton does not manage", () => {
    expect(
      editActionOnSecrets(
        secret(helmLabels, 'Secret', helmAnnotations),
        actions,
      ),
    ).toBe(actions);
  });

  it('leaves Edit to the managed rule where a setting tells the owner to leave the Secret', () => {
    const kept = {
      'kustomize.toolkit.fluxcd.io/name': 'apps',
      'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent',
    };
    expect(editActionOnSecrets(secret(kept), actions)).toBe(actions);
    expect(
      editActionOnSecrets(
        secret({ ...kept, 'krypton.io/managed-by': 'krypton' }),
        actions,
      ),
    ).toEqual(actions.filter(a => a.id !== DefaultHeaderAction.EDIT));
  });
});
