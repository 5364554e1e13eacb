import { isMap, parseAllDocuments } from 'yaml';
import { detectFormat } from './formats';
import { mayBeYamlMapping } from './yamlMapping';

const L = 131_072;
const fill = (unit: string) =>
  unit.repeat(Math.ceil(L / unit.length)).slice(0, L);

/** What Auto detection asks of YAML: documents that all parse as mappings, without errors. */
function parsesAsMappings(text: string): boolean {
  try {
    const docs = parseAllDocuments(text, {
      schema: 'failsafe',
      prettyErrors: false,
    });
    return (
      docs.length > 0 &&
      docs.every(doc => doc.errors.length === 0 && isMap(doc.contents))
    );
  } catch {
    return false;
  }
}

describe('mayBeYamlMapping', () => {
  it('rules out, from their first lines, the shapes that cost the YAML parser seconds', () => {
    // Each took the parser 0.4–20 s at the preview limit (quadratic with pretty errors).
    for (const text of [
      fill('!['),
      fill('['),
      fill('"'),
      fill('! '),
      fill('&a '),
      `# Hosts\n\n${'- host\n'.repeat(16_000)}`,
      `# Runbook\n\nProse without a key comes first.\n${fill('a: b\n')}`,
    ]) {
      expect(mayBeYamlMapping(text)).toBe(false);
      expect(detectFormat(text)).not.toBe('yaml');
    }
  });

  it('checks the root of every document', () => {
    expect(mayBeYamlMapping('a: 1\n---\nb: 2\n')).toBe(true);
    expect(mayBeYamlMapping(`a: 1\n---\n${fill('![')}`)).toBe(false);
    expect(mayBeYamlMapping(`a: 1\n...\n${fill('"')}`)).toBe(false);
  });

  it('passes mappings in every form YAML has', () => {
    const mappings = [
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n',
      '# comment\n\n%YAML 1.2\n---\nkey: value\n',
      '--- !!map\na: 1\n',
      '--- {a: 1}\n',
      '!!map\n&anchor\nkey: value\n',
      '&a key: value\n',
      '{a: 1,\n b: 2}\n',
      '? complex key\n: value\n',
      '"quoted key": 1\n',
      '{"json":1, yaml: [x]}\n',
      '[a, b]: flow key\n',
      'key:\n',
      '  indented: root\n',
      '\ufeffbom: 1\n',
      'a: 1\r\nb: 2\r\n',
      `${'k'.repeat(1023)}: long key\n`,
    ];
    for (const text of mappings) {
      expect(parsesAsMappings(text)).toBe(true);
      expect(mayBeYamlMapping(text)).toBe(true);
    }
    // YAML refuses an implicit key whose ":" is more than 1,024 characters from its start.
    const tooLong = `${'k'.repeat(1025)}: value\n`;
    expect(parsesAsMappings(tooLong)).toBe(false);
    expect(mayBeYamlMapping(tooLong)).toBe(false);
  });

  it('never rules out a text that parses as mappings', () => {
    // Random texts of YAML's indicators; a few in a hundred parse as mappings.
    const pieces = [
      'k',
      ':',
      ' ',
      '  ',
      '\n',
      '- ',
      '# c',
      '!t ',
      '&a ',
      '{',
      '}',
      '[',
      ']',
      '? ',
      '"',
      "'",
      '| ',
      '> ',
      ', ',
      '---',
      '...',
      ': ',
      'k: v\n',
      'k:\n',
      '!!map',
      '*a',
      '\t',
      '%YAML 1.2\n',
      '\n---\n',
      '\n  ',
      'xyz',
      '\r\n',
    ];
    // A 32-bit linear congruential generator, so that every run tries the same texts.
    let state = 23;
    const next = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 16) % n;
    };
    let mappings = 0;
    const ruledOut: string[] = [];
    for (let n = 0; n < 5000; n++) {
      let text = '';
      const length = 1 + next(24);
      for (let i = 0; i < length; i++) text += pieces[next(pieces.length)];
      if (parsesAsMappings(text)) {
        mappings++;
        if (!mayBeYamlMapping(text)) ruledOut.push(text);
      }
    }
    expect(ruledOut).toEqual([]);
    expect(mappings).toBeGreaterThan(100);
  });
});
