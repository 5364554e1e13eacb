import {
  ApprovalRule,
  approvalPolicyFor,
  matchesGlob,
  ownApprovalPolicy,
  parseApprovalRules,
  secretApprovalPolicy,
} from './policy';

const KEY = 'krypton.io/required-approvals';

function rules(raw: unknown[]): ApprovalRule[] {
  const parsed = parseApprovalRules(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

const target = (
  over: Partial<{
    cluster: string;
    namespace: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  }> = {},
) => ({
  cluster: 'prod',
  namespace: 'payments-prod',
  labels: {},
  annotations: {},
  ...over,
});

describe('parseApprovalRules', () => {
  it('fills in the defaults: owners approve, hard, 24 hours, the requester not counting', () => {
    expect(rules([{ requiredApprovals: 2 }])).toEqual([
      {
        requiredApprovals: 2,
        allowSelfApproval: false,
        expiresAfterHours: 24,
        enforcement: 'hard',
        bypassGroups: [],
      },
    ]);
    expect(parseApprovalRules(undefined)).toEqual({ ok: true, value: [] });
  });

  it('keeps every field of a full rule, with group refs normalized', () => {
    expect(
      rules([
        {
          clusters: ['prod', 'prod-eu'],
          namespaces: ['payments-*', 'billing'],
          labelSelector: 'tier=critical,env notin (dev)',
          requiredApprovals: 3,
          approverGroups: ['group:Default/SRE', 'group:security'],
          allowSelfApproval: true,
          expiresAfterHours: 168,
          enforcement: 'soft',
          bypassGroups: ['group:default/incident-commanders'],
        },
      ]),
    ).toEqual([
      {
        clusters: ['prod', 'prod-eu'],
        namespaces: ['payments-*', 'billing'],
        labelSelector: 'tier=critical,env notin (dev)',
        requiredApprovals: 3,
        approverGroups: ['group:default/sre', 'group:default/security'],
        allowSelfApproval: true,
        expiresAfterHours: 168,
        enforcement: 'soft',
        bypassGroups: ['group:default/incident-commanders'],
      },
    ]);
  });

  it.each([
    [
      [{ requiredApprovals: 0 }],
      'krypton.approval.rules[0].requiredApprovals must be a whole number from 1 to 5',
    ],
    [
      [{ requiredApprovals: 6 }],
      'krypton.approval.rules[0].requiredApprovals must be a whole number from 1 to 5',
    ],
    [
      [{ requiredApprovals: 1.5 }],
      'krypton.approval.rules[0].requiredApprovals must be a whole number from 1 to 5',
    ],
    [
      [{ requiredApprovals: 1 }, { requiredApprovals: '2' }],
      'krypton.approval.rules[1].requiredApprovals must be a whole number from 1 to 5',
    ],
    [
      [{}],
      'krypton.approval.rules[0].requiredApprovals must be a whole number from 1 to 5',
    ],
    [
      [{ requiredApprovals: 1, expiresAfterHours: 169 }],
      'krypton.approval.rules[0].expiresAfterHours must be a whole number from 1 to 168',
    ],
    [
      [{ requiredApprovals: 1, expiresAfterHours: 0 }],
      'krypton.approval.rules[0].expiresAfterHours must be a whole number from 1 to 168',
    ],
    [
      [{ requiredApprovals: 1, enforcement: 'strict' }],
      'krypton.approval.rules[0].enforcement must be hard or soft',
    ],
    [
      [{ requiredApprovals: 1, enforcement: 'soft' }],
      'krypton.approval.rules[0].bypassGroups must name who may bypass a soft rule',
    ],
    [
      [{ requiredApprovals: 1, bypassGroups: ['group:default/sre'] }],
      'krypton.approval.rules[0].bypassGroups applies to soft rules only',
    ],
    [
      [{ requiredApprovals: 1, approvers: ['group:default/sre'] }],
      'krypton.approval.rules[0].approvers is not a field of an approval rule',
    ],
    [
      [{ requiredApprovals: 1, approverGroups: ['user:default/alice'] }],
      'krypton.approval.rules[0].approverGroups[0] is not valid',
    ],
    [
      [{ requiredApprovals: 1, approverGroups: [] }],
      'krypton.approval.rules[0].approverGroups must be a list of 1 to 100 entries',
    ],
    [
      [{ requiredApprovals: 1, namespaces: ['Payments'] }],
      'krypton.approval.rules[0].namespaces[0] is not valid',
    ],
    [
      [{ requiredApprovals: 1, namespaces: 'payments' }],
      'krypton.approval.rules[0].namespaces must be a list of 1 to 100 entries',
    ],
    [
      [{ requiredApprovals: 1, clusters: ['two words'] }],
      'krypton.approval.rules[0].clusters[0] is not valid',
    ],
    [
      [{ requiredApprovals: 1, labelSelector: 'tier in (a' }],
      'krypton.approval.rules[0].labelSelector is not a valid label selector',
    ],
    [
      [{ requiredApprovals: 1, allowSelfApproval: 'yes' }],
      'krypton.approval.rules[0].allowSelfApproval must be true or false',
    ],
    [['all'], 'krypton.approval.rules[0] must be an object'],
    [
      { requiredApprovals: 1 },
      'krypton.approval.rules must be a list of at most 100 rules',
    ],
  ])('refuses %j: %s', (raw, error) => {
    expect(parseApprovalRules(raw)).toEqual({ ok: false, error });
  });

  it('refuses more than 100 rules', () => {
    const raw = Array.from({ length: 101 }, () => ({ requiredApprovals: 1 }));
    expect(parseApprovalRules(raw)).toEqual({
      ok: false,
      error: 'krypton.approval.rules must be a list of at most 100 rules',
    });
    expect(parseApprovalRules(raw.slice(1)).ok).toBe(true);
  });
});

describe('matchesGlob', () => {
  it.each([
    ['payments-*', 'payments-prod', true],
    ['payments-*', 'payments-', true],
    ['payments-*', 'payment', false],
    ['*-prod', 'payments-prod', true],
    ['*-prod', 'payments-prod-eu', false],
    ['p?y*', 'pay', true],
    ['p?y*', 'py', false],
    ['*', '', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['exact', 'exact', true],
    ['exact', 'exacts', false],
  ])('%s against %s: %s', (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });

  it('answers a pattern of many stars against a near miss', () => {
    const pattern = `${'*a'.repeat(31)}b`;
    expect(matchesGlob(pattern, 'a'.repeat(63))).toBe(false);
    expect(matchesGlob(pattern, `${'a'.repeat(62)}b`)).toBe(true);
  });
});

describe('approvalPolicyFor', () => {
  const configured = rules([
    { clusters: ['dev'], requiredApprovals: 1, expiresAfterHours: 4 },
    {
      namespaces: ['payments-*'],
      labelSelector: 'tier=critical',
      requiredApprovals: 3,
      approverGroups: ['group:default/sre'],
    },
    {
      namespaces: ['payments-*'],
      requiredApprovals: 1,
      enforcement: 'soft',
      bypassGroups: ['group:default/oncall'],
    },
  ]);

  it('applies the first rule that covers the Secret, in the order configured', () => {
    expect(
      approvalPolicyFor(
        target({ labels: { tier: 'critical' } }),
        configured,
        KEY,
      ),
    ).toEqual({
      requiredApprovals: 3,
      approvers: { kind: 'groups', groups: ['group:default/sre'] },
      allowSelfApproval: false,
      expiresAfterHours: 24,
      enforcement: 'hard',
      bypassGroups: [],
      source: 1,
    });
    expect(approvalPolicyFor(target(), configured, KEY)).toEqual({
      requiredApprovals: 1,
      approvers: { kind: 'owners' },
      allowSelfApproval: false,
      expiresAfterHours: 24,
      enforcement: 'soft',
      bypassGroups: ['group:default/oncall'],
      source: 2,
    });
    expect(
      approvalPolicyFor(
        target({ cluster: 'dev', labels: { tier: 'critical' } }),
        configured,
        KEY,
      ),
    ).toMatchObject({ requiredApprovals: 1, expiresAfterHours: 4, source: 0 });
  });

  it('covers nothing outside the rules and without the annotation', () => {
    expect(
      approvalPolicyFor(target({ namespace: 'billing' }), configured, KEY),
    ).toBeNull();
    expect(approvalPolicyFor(target(), [], KEY)).toBeNull();
  });

  it("raises a rule's approvals by the Secret's annotation, and never lowers them", () => {
    const labels = { tier: 'critical' };
    expect(
      approvalPolicyFor(
        target({ labels, annotations: { [KEY]: '5' } }),
        configured,
        KEY,
      ),
    ).toMatchObject({ requiredApprovals: 5, source: 1 });
    expect(
      approvalPolicyFor(
        target({ labels, annotations: { [KEY]: '1' } }),
        configured,
        KEY,
      ),
    ).toMatchObject({ requiredApprovals: 3, source: 1 });
  });

  it('asks for approval by the owners on the annotation alone, with the defaults', () => {
    expect(
      approvalPolicyFor(
        target({ namespace: 'billing', annotations: { [KEY]: '2' } }),
        configured,
        KEY,
      ),
    ).toEqual({
      requiredApprovals: 2,
      approvers: { kind: 'owners' },
      allowSelfApproval: false,
      expiresAfterHours: 24,
      enforcement: 'hard',
      bypassGroups: [],
      source: 'annotation',
    });
  });

  it.each(['0', '6', 'two', '', ' 2', '02', '2.0'])(
    'reads the annotation %j as one approval, and says why',
    value => {
      expect(
        approvalPolicyFor(
          target({ namespace: 'billing', annotations: { [KEY]: value } }),
          configured,
          KEY,
        ),
      ).toMatchObject({
        requiredApprovals: 1,
        source: 'annotation',
        annotationProblem:
          'The annotation krypton.io/required-approvals must be a whole number from 1 to 5; until its owners correct it, one approval is required.',
      });
    },
  );
});

describe('secretApprovalPolicy', () => {
  it("reads a live Secret's namespace, labels and annotations under the prefix", () => {
    const configured = rules([
      {
        namespaces: ['payments-*'],
        labelSelector: 'tier=prod',
        requiredApprovals: 1,
      },
    ]);
    const secret = (labels: Record<string, string>, annotations = {}) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'payments-prod', labels, annotations },
    });
    expect(
      secretApprovalPolicy(
        secret({ tier: 'prod' }),
        'c',
        configured,
        'krypton.io',
      )?.requiredApprovals,
    ).toBe(1);
    expect(
      secretApprovalPolicy(secret({}), 'c', configured, 'krypton.io'),
    ).toBeNull();
    expect(
      secretApprovalPolicy(
        secret({}, { 'example.com/required-approvals': '3' }),
        'c',
        configured,
        'example.com',
      )?.requiredApprovals,
    ).toBe(3);
  });
});

describe('ownApprovalPolicy', () => {
  const secret = (annotations: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'db',
      namespace: 'payments-prod',
      labels: { tier: 'prod' },
      annotations,
    },
  });

  it("reads the Secret's own annotation under the prefix, and nothing else", () => {
    expect(
      ownApprovalPolicy(
        secret({ 'example.com/required-approvals': '2' }),
        'example.com',
      )?.requiredApprovals,
    ).toBe(2);
    expect(
      ownApprovalPolicy(
        secret({ 'krypton.io/required-approvals': '2' }),
        'example.com',
      ),
    ).toBeNull();
    expect(ownApprovalPolicy(secret({}), 'krypton.io')).toBeNull();
  });
});
