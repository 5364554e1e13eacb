import { AccessRules } from '@krypton/core';
import { admittedOwners, admittedRefs } from './audience';

const rules = (partial: Partial<AccessRules> = {}): AccessRules => ({
  owners: [],
  editors: [],
  viewers: [],
  ...partial,
});

describe('admittedOwners', () => {
  const linkingOwners = [
    'group:default/team-a',
    'user:default/bob',
    'user:default/guest',
    'group:default/krypton-admins',
  ];

  it('keeps the owners that a role of the rules names, each role alike', () => {
    for (const role of ['owners', 'editors', 'viewers'] as const) {
      expect(
        admittedOwners(linkingOwners, {
          rules: rules({ [role]: ['group:default/team-a'] }),
          admins: [],
        }),
      ).toEqual(['group:default/team-a']);
    }
  });

  it('keeps the owners that are admins, whatever the rules say', () => {
    expect(
      admittedOwners(linkingOwners, {
        rules: rules({ viewers: ['user:default/bob'] }),
        admins: ['group:default/krypton-admins'],
      }),
    ).toEqual(['user:default/bob', 'group:default/krypton-admins']);
  });

  it('admits no owner by a link alone: a Secret without rules notifies only admin owners', () => {
    expect(
      admittedOwners(linkingOwners, { rules: rules(), admins: [] }),
    ).toEqual([]);
    expect(
      admittedOwners(linkingOwners, {
        rules: rules(),
        admins: ['group:default/krypton-admins'],
      }),
    ).toEqual(['group:default/krypton-admins']);
  });

  it('leaves out an owner that the rules do not name, such as a hostile entity’s', () => {
    expect(
      admittedOwners(['user:default/guest'], {
        rules: rules({
          owners: ['user:default/root'],
          viewers: ['group:default/team-a'],
        }),
        admins: ['group:default/krypton-admins'],
      }),
    ).toEqual([]);
  });

  it('compares normalized refs exactly: case and a default namespace match, membership does not', () => {
    expect(
      admittedOwners(['User:Default/Bob', 'group:default/team-a'], {
        rules: rules({ viewers: ['user:bob'] }),
        admins: [],
      }),
    ).toEqual(['user:default/bob']);
    // bob may be a member of team-a, and alice of nothing: refs are not resolved to members.
    expect(
      admittedOwners(['group:default/team-a', 'user:default/alice'], {
        rules: rules({ viewers: ['user:default/alice-x', 'group:ops/team-a'] }),
        admins: ['user:default/alice2'],
      }),
    ).toEqual([]);
  });

  it('admits no one through a malformed entry or a ref of another kind', () => {
    expect(
      admittedOwners(['component:default/api', 'user:default/bob'], {
        rules: rules({ owners: ['component:default/api', 'not a ref:'] }),
        admins: [],
      }),
    ).toEqual([]);
  });
});

describe('admittedRefs', () => {
  it('lists every ref of the rules and the admins once, normalized', () => {
    expect(
      admittedRefs({
        rules: rules({
          owners: ['user:default/root'],
          editors: ['Group:team-a'],
          viewers: ['user:default/root', 'garbage:'],
        }),
        admins: ['group:default/krypton-admins'],
      }),
    ).toEqual([
      'user:default/root',
      'group:default/team-a',
      'group:default/krypton-admins',
    ]);
  });
});
