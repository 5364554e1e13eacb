import { impersonationFor } from './identity';

const user = {
  userEntityRef: 'user:default/Alice',
  ownershipEntityRefs: [
    'user:default/Alice',
    'group:default/team-a',
    'group:ops/on-call',
    'component:default/x',
  ],
};

describe('impersonationFor', () => {
  it('uses normalized entity refs by default, one group per group ref', () => {
    expect(
      impersonationFor(user, {
        userTemplate: '{{ref}}',
        groupTemplate: '{{ref}}',
        extraGroups: [],
      }),
    ).toEqual({
      user: 'user:default/alice',
      groups: ['group:default/team-a', 'group:ops/on-call'],
    });
  });

  it('renders templates and adds extra groups', () => {
    expect(
      impersonationFor(user, {
        userTemplate: 'backstage:{{ name }}',
        groupTemplate: '{{namespace}}-{{name}}',
        extraGroups: ['backstage-users'],
      }),
    ).toEqual({
      user: 'backstage:Alice',
      groups: ['default-team-a', 'ops-on-call', 'backstage-users'],
    });
  });
});
