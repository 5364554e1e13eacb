import { validateDataKey } from '@krypton/core';
import { FAILSAFE_SCHEMA, dump, load } from 'js-yaml';

/**
 * The file that `edit` opens: a Secret's text values as YAML, with its binary keys named in a
 * comment and never written. The failsafe schema reads every scalar as a string, so a value reads
 * back exactly as it was written (no "yes" turned into true, no 0123 into a number).
 */
export function editText(
  ref: string,
  version: number | null,
  data: Record<string, string>,
  binaryKeys: readonly string[],
  problem?: string,
): string {
  const header = [
    ...(problem ? [`# Error: ${problem}`, '#'] : []),
    `# Editing Secret ${ref}${
      version === null ? '' : ` (version ${version})`
    }. Lines starting with # are ignored.`,
    '# Change, add or remove keys; save and quit to apply. An unchanged file changes nothing.',
    ...(binaryKeys.length > 0
      ? [
          `# Binary values are kept as they are and not shown: ${binaryKeys.join(
            ', ',
          )}.`,
        ]
      : []),
  ];
  const body =
    Object.keys(data).length === 0
      ? ''
      : dump(data, {
          schema: FAILSAFE_SCHEMA,
          lineWidth: -1,
          sortKeys: true,
          quotingType: '"',
        });
  return `${header.join('\n')}\n${body}`;
}

/** The edited text values, or why the file cannot be read as them. */
export function readEdit(
  text: string,
  binaryKeys: readonly string[],
): { data: Record<string, string> } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = load(text, { schema: FAILSAFE_SCHEMA });
  } catch (err) {
    const mark = (err as { mark?: { line?: number } }).mark;
    return {
      problem: `the file is not valid YAML${
        mark?.line === undefined ? '' : ` (line ${mark.line + 1})`
      }.`,
    };
  }
  if (parsed === undefined || parsed === null) return { data: {} };
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    return { problem: 'the file must map each key to its value.' };
  const binary = new Set(binaryKeys);
  const data: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(
    parsed as Record<string, unknown>,
  )) {
    if (typeof value !== 'string')
      return {
        problem: `the value of ${key} must be text, not a list or a map.`,
      };
    if (binary.has(key))
      return {
        problem: `${key} holds a binary value, which is kept and cannot be edited here.`,
      };
    try {
      validateDataKey(key);
    } catch (err) {
      return { problem: `${key}: ${(err as Error).message}` };
    }
    data[key] = value;
  }
  return { data };
}
