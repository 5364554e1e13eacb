/**
 * What the words of every view have in common: their keys as i18next reads them, and the English
 * `t` for a host without translations.
 */

/**
 * The dotted keys of the messages of a tree of messages, as i18next reads them.
 *
 * @public
 */
export type MessageKeyOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K}`
    : MessageKeyOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/**
 * A key with i18next's plural suffix (`_one`, `_other`...) taken off.
 *
 * @public
 */
export type WithoutPluralSuffix<K> = K extends `${infer Base}_${
  | 'zero'
  | 'one'
  | 'two'
  | 'few'
  | 'many'
  | 'other'}`
  ? Base
  : K;

/** A tree of English messages, as a translation ref takes it. */
export type MessageTree = { readonly [key: string]: string | MessageTree };

/** Interpolation values by name; a numeric `count` picks the plural form. */
export type EnglishParams = { readonly [name: string]: string | number };

function lookup(tree: MessageTree, path: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = Object.prototype.hasOwnProperty.call(node, part)
      ? node[part]
      : undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

const plurals = new Intl.PluralRules('en');
const numbers = new Intl.NumberFormat('en');
// The only interpolation forms the messages use: {{name}} and {{name, number}}.
const PLACEHOLDER = /\{\{\s*(\w+)\s*(?:,\s*(number)\s*)?\}\}/g;

/**
 * A `t` that renders the English messages of `tree` with i18next's interpolation and plural
 * keys; an unknown key renders as itself, as i18next does.
 */
export function englishT<Key extends string, Params extends EnglishParams>(
  tree: MessageTree,
): (key: Key, params?: Params) => string {
  return (key, params) => {
    const values: EnglishParams = params ?? {};
    const { count } = values;
    const message =
      (typeof count === 'number'
        ? lookup(tree, `${key}_${plurals.select(count)}`)
        : undefined) ?? lookup(tree, key);
    if (message === undefined) return key;
    return message.replace(
      PLACEHOLDER,
      (whole, name: string, format?: string) => {
        if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
        const value = values[name];
        return format && typeof value === 'number'
          ? numbers.format(value)
          : String(value);
      },
    );
  };
}
