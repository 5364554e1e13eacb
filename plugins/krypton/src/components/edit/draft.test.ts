import { SecretDto } from '@krypton/core';
import { englishT } from '../../__testUtils__/englishT';
import { parseBulk as parseBulkIn, planBulk } from './bulkParse';
import {
  Draft,
  DraftContext,
  applyBulkPlan,
  buildCreateRequest,
  buildUpdateRequest,
  createDraftHasInput,
  draftFromSecret,
  draftTextData,
  emptyDraft,
  updateChangesSomething,
  validateDraft as validateDraftIn,
} from './draft';

const t = englishT();
const parseBulk = (text: string) => parseBulkIn(text, t);
const validateDraft = (draft: Draft, ctx: DraftContext) =>
  validateDraftIn(draft, ctx, t);

const secret: SecretDto = {
  cluster: 'local',
  namespace: 'team-a',
  name: 'db',
  uid: 'uid-1',
  resourceVersion: '100',
  type: 'Opaque',
  immutable: false,
  managed: true,
  version: 3,
  description: 'Database',
  access: {
    owners: ['user:default/alice'],
    editors: [],
    viewers: ['group:default/team-a'],
  },
  keys: ['USER', 'PASS'],
  binaryKeys: [],
  data: { USER: 'app', PASS: 'pw' },
  binaryData: {},
};

const withBinary: SecretDto = {
  ...secret,
  keys: ['USER', 'PASS', 'cert.der'],
  binaryKeys: ['cert.der'],
  binaryData: { 'cert.der': 'AAEC' },
};

const editCtx = {
  mode: 'edit' as const,
  binaryKeys: ['cert.der'],
  canEditAccess: true,
};

describe('buildUpdateRequest', () => {
  it('sends only the pinned revision when nothing changed', () => {
    const request = buildUpdateRequest(draftFromSecret(secret), secret, true);
    expect(request).toEqual({ resourceVersion: '100' });
    expect(updateChangesSomething(request)).toBe(false);
  });

  it('sends all text values, and never binaryData, when a value changed', () => {
    const draft = draftFromSecret(secret);
    draft.rows[1] = { ...draft.rows[1], value: 'new' };
    const request = buildUpdateRequest(draft, secret, true);
    expect(request).toEqual({
      resourceVersion: '100',
      data: { USER: 'app', PASS: 'new' },
    });
    expect('binaryData' in request).toBe(false);
  });

  it('never sends data for a binary-containing Secret, whose values the form does not edit', () => {
    const draft = draftFromSecret(withBinary);
    draft.rows[1] = { ...draft.rows[1], value: 'new' };
    draft.description = 'Only this';
    expect(buildUpdateRequest(draft, withBinary, true)).toEqual({
      resourceVersion: '100',
      description: 'Only this',
    });
  });

  it('treats re-spelled refs as unchanged and sends only changed roles', () => {
    const draft = draftFromSecret(secret);
    draft.access.owners = 'user:alice';
    draft.access.editors = 'user:default/bob, user:bob';
    const request = buildUpdateRequest(draft, secret, true);
    expect(request.access).toEqual({ editors: ['user:default/bob'] });
  });

  it('never sends access without the right to edit it', () => {
    const draft = draftFromSecret(secret);
    draft.access.owners = 'user:default/mallory';
    expect(buildUpdateRequest(draft, secret, false)).toEqual({
      resourceVersion: '100',
    });
  });

  it('sends immutable only when it is switched on', () => {
    const draft = draftFromSecret(secret);
    draft.immutable = true;
    expect(buildUpdateRequest(draft, secret, true).immutable).toBe(true);
    const frozen = { ...secret, immutable: true };
    const thawed = { ...draftFromSecret(frozen), immutable: false };
    expect('immutable' in buildUpdateRequest(thawed, frozen, true)).toBe(false);
  });

  it('never sends immutable without owner rights, so an editor needs none', () => {
    const draft = { ...draftFromSecret(secret), immutable: true };
    draft.rows[1] = { ...draft.rows[1], value: 'new' };
    expect(buildUpdateRequest(draft, secret, false)).toEqual({
      resourceVersion: '100',
      data: { USER: 'app', PASS: 'new' },
    });
  });

  it('starts no rows from a baseline without values, and never sends data for it', () => {
    const { data: _data, binaryData: _binary, ...meta } = secret;
    const redacted = { ...meta, valuesOmitted: true as const };
    const draft = draftFromSecret(redacted);
    expect(draft.rows).toEqual([]);
    expect(buildUpdateRequest(draft, redacted, true)).toEqual({
      resourceVersion: '100',
    });
    // Even rows added to such a draft are no data edit: there is nothing to compare them with.
    draft.rows.push({ id: 'x', key: 'USER', value: '' });
    draft.description = 'Only this';
    expect(buildUpdateRequest(draft, redacted, true)).toEqual({
      resourceVersion: '100',
      description: 'Only this',
    });
  });
});

describe('buildCreateRequest', () => {
  it('sends the fields, skipping empty optional ones', () => {
    const draft = emptyDraft();
    draft.name = 'api';
    draft.rows = [
      { id: 'a', key: 'TOKEN', value: 't' },
      { id: 'b', key: '', value: '' },
    ];
    draft.access.owners = 'group:team-a';
    expect(buildCreateRequest(draft, true)).toEqual({
      name: 'api',
      type: 'Opaque',
      data: { TOKEN: 't' },
      access: { owners: ['group:default/team-a'] },
    });
    expect(buildCreateRequest(draft, false).access).toBeUndefined();
  });
});

describe('validateDraft', () => {
  it('checks names on create, refusing snapshot names', () => {
    const draft = { ...emptyDraft(), name: 'krypton-h-abc-v1' };
    const ctx = { ...editCtx, mode: 'create' as const };
    expect(validateDraft(draft, ctx).name).toMatch(/reserved/);
    expect(validateDraft({ ...draft, name: 'Bad_Name' }, ctx).name).toMatch(
      /DNS subdomain/,
    );
    expect(validateDraft({ ...draft, name: 'good' }, ctx).name).toBeUndefined();
    expect(
      validateDraft(
        { ...draft, name: 'ok', type: 'kubernetes.io/service-account-token' },
        ctx,
      ).type,
    ).toMatch(/cannot be created/);
  });

  it('reports bad, duplicate and binary keys by row', () => {
    const draft = emptyDraft();
    draft.rows = [
      { id: 'a', key: 'bad key', value: '1' },
      { id: 'b', key: 'A', value: '1' },
      { id: 'c', key: 'A', value: '2' },
      { id: 'd', key: 'cert.der', value: 'x' },
      { id: 'e', key: '', value: 'orphan' },
      { id: 'f', key: '', value: '' },
    ];
    const { rows } = validateDraft(draft, editCtx);
    expect(Object.keys(rows).sort()).toEqual(['a', 'c', 'd', 'e']);
    expect(rows.a).toMatch(/Invalid key/);
    expect(rows.c).toMatch(/more than once/);
    expect(rows.d).toMatch(/binary key/);
  });

  it('checks access refs only when they can be edited', () => {
    const draft = emptyDraft();
    draft.access.viewers = 'user:default/a, component:default/svc';
    expect(validateDraft(draft, editCtx).access.viewers).toMatch(
      /"component:default\/svc" is not a user or group/,
    );
    expect(
      validateDraft(draft, { ...editCtx, canEditAccess: false }).access,
    ).toEqual({});
  });
});

describe('applyBulkPlan', () => {
  it('updates rows in place, appends new keys and clears the paste', () => {
    const draft = {
      ...draftFromSecret(secret),
      bulkText: 'PASS=x\nNEW=y',
    };
    draft.revealed = [draft.rows[0].id];
    const plan = planBulk(
      draftTextData(draft),
      parseBulk(draft.bulkText),
      'replace',
    );
    const next = applyBulkPlan(draft, plan);
    expect(next.rows.map(r => [r.key, r.value])).toEqual([
      ['PASS', 'x'],
      ['NEW', 'y'],
    ]);
    expect(next.rows[0].id).toBe(draft.rows[1].id);
    expect(next.bulkText).toBe('');
    expect(next.revealed).toEqual([]);
  });
});

describe('binary rows from files', () => {
  const row = (key: string) => ({
    id: `bin-${key}`,
    key,
    base64: 'AP+A',
    fileName: 'store.p12',
    size: 3,
  });
  const createCtx = {
    mode: 'create' as const,
    binaryKeys: [],
    canEditAccess: true,
  };

  it('are sent as binaryData on create, and count as input', () => {
    const draft = { ...emptyDraft(), name: 'keystore' };
    expect(
      createDraftHasInput({ ...emptyDraft(), binaryRows: [row('k')] }),
    ).toBe(true);
    expect(buildCreateRequest(draft, true)).not.toHaveProperty('binaryData');
    expect(
      buildCreateRequest({ ...draft, binaryRows: [row('store.p12')] }, true),
    ).toEqual({
      name: 'keystore',
      type: 'Opaque',
      data: {},
      binaryData: { 'store.p12': 'AP+A' },
    });
  });

  it('follow the key rule, share keys with no text row, and never enter an edit', () => {
    const draft = {
      ...emptyDraft(),
      name: 'keystore',
      rows: [{ id: 'text-1', key: 'dup', value: 'x' }],
      binaryRows: [row('dup'), row(''), row('..bad')],
    };
    expect(validateDraft(draft, createCtx).rows).toEqual({
      'bin-dup': 'This key is used more than once.',
      'bin-': 'Enter a key for this value.',
      'bin-..bad': expect.stringMatching(/^Invalid key/),
    });
    expect(
      validateDraft(
        { ...draftFromSecret(secret), binaryRows: [row('new')] },
        { ...createCtx, mode: 'edit' },
      ).rows,
    ).toEqual({
      'bin-new': 'Binary values are added only when creating a Secret.',
    });
  });
});
