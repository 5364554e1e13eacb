import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { tryNormalizeEntityRef } from '@krypton/core';
import fc from 'fast-check';

/** What the core's normal form was when it called the catalog model. */
function catalogNormalForm(ref: string): string | undefined {
  if (ref.length > 512) return undefined;
  let parsed;
  try {
    parsed = parseEntityRef(ref.trim());
  } catch {
    return undefined;
  }
  const kind = parsed.kind.toLowerCase();
  if (kind !== 'user' && kind !== 'group') return undefined;
  return stringifyEntityRef({ ...parsed, kind }).toLowerCase();
}

describe("the core's entity refs", () => {
  // The core reads refs without @backstage/catalog-model; these are the refs the catalog model
  // reads, so the two must agree on every one: which are refs, and their one normal form.
  const piece = fc.stringMatching(/^[A-Za-z0-9:/ ._-]{0,12}$/);

  it("agrees with @backstage/catalog-model's parseEntityRef on every shape of ref", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', 'user:', 'User:', 'group:', 'GROUP:', 'component:'),
        piece,
        fc.constantFrom('', '/', ':', ' '),
        piece,
        (head, a, glue, b) => {
          const ref = `${head}${a}${glue}${b}`;
          expect(tryNormalizeEntityRef(ref)).toBe(catalogNormalForm(ref));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('agrees on the refs at the edges', () => {
    for (const ref of [
      '',
      ':',
      '/',
      ':/',
      'user:',
      'user:/',
      'user:/x',
      'user:a/',
      'user:a/b/c',
      'user:a:b',
      'a/user:b',
      ' user:alice ',
      'user:default/alice',
      'group:x',
      'x'.repeat(513),
      `user:${'x'.repeat(507)}`,
    ]) {
      expect(tryNormalizeEntityRef(ref)).toBe(catalogNormalForm(ref));
    }
  });
});
