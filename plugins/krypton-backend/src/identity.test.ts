import { impersonationFor } from './identity';

const user = {
  userEntityRef: 'user:default/Alice',
  ownershipEntityRefs: [
    'user:default/Alice',
    'group:default/team-a',
    'group:Ops/On-Call',
    'component:default/x',
  ],
};
const defaults = {
  userTemplate: '{{ref}}',
  groupTemplate: '{{ref}}',
  extraGroups: [],
};

describe('impersonationFor', () => {
  it('uses normalized entity refs by default, one group per group ref', () => {
    expect(impersonationFor(user, defaults)).toEqual({
      user: 'user:default/alice',
      groups: ['group:default/team-a', 'group:ops/on-call'],
    });
  });

  it('renders every placeholder in lowercase and adds extra groups', () => {
    expect(
      impersonationFor(user, {
        userTemplate: 'backstage:{{ kind }}:{{namespace}}:{{ name }}',
        groupTemplate: '{{namespace}}-{{name}}',
        extraGroups: ['backstage-users'],
      }),
    ).toEqual({
      user: 'backstage:user:default:alice',
      groups: ['default-team-a', 'ops-on-call', 'backstage-users'],
    });
  });

  it('maps every spelling of one user to one Kubernetes user', () => {
    const names = [
      'user:default/Alice',
      'User:Default/ALICE',
      'user:alice',
    ].map(
      ref =>
        impersonationFor(
          { userEntityRef: ref, ownershipEntityRefs: [] },
          { ...defaults, userTemplate: '{{namespace}}/{{name}}' },
        ).user,
    );
    expect(new Set(names)).toEqual(new Set(['default/alice']));
  });

  it('refuses rendered names in the system: namespace unless listed in extraGroups', () => {
    const systemGroup = {
      userEntityRef: 'user:default/alice',
      ownershipEntityRefs: ['group:default/masters'],
    };
    const templates = { ...defaults, groupTemplate: 'system:{{name}}' };
    expect(() => impersonationFor(systemGroup, templates)).toThrow(
      /reserved or malformed Kubernetes name/,
    );
    expect(() =>
      impersonationFor(user, { ...defaults, userTemplate: 'system:{{name}}' }),
    ).toThrow(/reserved or malformed Kubernetes name/);
    expect(
      impersonationFor(systemGroup, {
        ...templates,
        extraGroups: ['system:authenticated', 'system:masters'],
      }).groups,
    ).toEqual(['system:masters', 'system:authenticated']);
  });

  it.each([
    ['a blank before system:', 'group:default/ system:masters'],
    ['a tab before system:', 'group:default/\tsystem:masters'],
    ['a no-break space before system:', 'group:default/\u00a0system:masters'],
    ['a control character inside', 'group:default/team\u0000a'],
    ['a line break inside', 'group:default/team\r\nImpersonate-Group: x'],
    ['a character outside printable ASCII', 'group:default/t\u00e9am'],
  ])(
    'refuses a group with %s, which Kubernetes would read otherwise',
    (_what, ref) => {
      const principal = {
        userEntityRef: 'user:default/alice',
        ownershipEntityRefs: [ref],
      };
      expect(() =>
        impersonationFor(principal, { ...defaults, groupTemplate: '{{name}}' }),
      ).toThrow(/reserved or malformed Kubernetes name/);
    },
  );

  it('checks the user name the same way', () => {
    expect(() =>
      impersonationFor(
        { userEntityRef: 'user:default/alice', ownershipEntityRefs: [] },
        { ...defaults, userTemplate: ' system:admin{{name}}' },
      ),
    ).toThrow(/reserved or malformed Kubernetes name/);
  });
});
