import { DefaultHeaderAction } from '@kinvolk/headlamp-plugin/lib/redux/actionButtonsSlice';
import { describe, expect, it } from 'vitest';
import { EDIT_ACTION, hideEditOnManaged } from './editAction';

const actions = [
  { id: DefaultHeaderAction.VIEW },
  { id: DefaultHeaderAction.EDIT },
  { id: DefaultHeaderAction.DELETE },
  { id: 'some-plugin.action' },
];

const secret = (labels?: Record<string, string>, kind = 'Secret') => ({
  kind,
  cluster: 'test',
  jsonData: { kind, metadata: { name: 'db', namespace: 'team-a', labels } },
});

describe('hideEditOnManaged', () => {
  it("names Headlamp's own Edit action", () => {
    expect(EDIT_ACTION).toBe(DefaultHeaderAction.EDIT);
  });

  it('removes only Edit on a Krypton-managed Secret', () => {
    expect(
      hideEditOnManaged(
        secret({ 'krypton.io/managed-by': 'krypton' }),
        actions,
      ),
    ).toEqual(actions.filter(a => a.id !== DefaultHeaderAction.EDIT));
  });

  it('keeps every action on unmanaged Secrets, other objects and list views', () => {
    expect(hideEditOnManaged(secret(), actions)).toBe(actions);
    expect(
      hideEditOnManaged(
        secret({ 'krypton.io/managed-by': 'someone-else' }),
        actions,
      ),
    ).toBe(actions);
    expect(
      hideEditOnManaged(
        secret({ 'krypton.io/managed-by': 'krypton' }, 'ConfigMap'),
        actions,
      ),
    ).toBe(actions);
    expect(hideEditOnManaged(null, actions)).toBe(actions);
  });
});
