import { dump } from 'js-yaml';
import { OutputFormat } from '../cli/args';

/** -o json or -o yaml of a command's result, for scripts. */
export function structured(
  format: Exclude<OutputFormat, 'table'>,
  value: unknown,
): string {
  return format === 'json'
    ? `${JSON.stringify(value, null, 2)}\n`
    : dump(value, { noRefs: true, lineWidth: -1, quotingType: '"' });
}
