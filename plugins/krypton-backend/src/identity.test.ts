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
      /reserved Kubernetes name/,
    );
    expect(() =>
      impersonationFor(user, { ...defaults, userTemplate: 'system:{{name}}' }),
    ).toThrow(/reserved Kubernetes name/);
    expect(
      impersonationFor(systemGroup, {
        ...templates,
        extraGroups: ['system:authenticated', 'system:masters'],
      }).groups,
    ).toEqual(['system:masters', 'system:authenticated']);
  });
});
