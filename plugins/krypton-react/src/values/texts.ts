import { previewMessages, valuesMessages } from './messages';

/**
 * The messages of the value views, under the areas they have in Krypton's translation ref.
 *
 * @public
 */
export const valueViewMessages = {
  values: valuesMessages,
  preview: previewMessages,
} as const;

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

/**
 * A message key of the value views, with plural forms under their common key, as i18next has it.
 *
 * @public
 */
export type ValuesTextKey = WithoutPluralSuffix<
  MessageKeyOf<typeof valueViewMessages>
>;

/**
 * Interpolation values by name; a numeric `count` picks the plural form.
 *
 * @public
 */
export interface ValuesTextParams {
  [name: string]: string | number;
}

/**
 * How a host turns a key of the value views into words: Backstage's translation `t` is one.
 *
 * @public
 */
export type ValuesT = (key: ValuesTextKey, params?: ValuesTextParams) => string;

type MessageTree = { readonly [key: string]: string | MessageTree };

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
 * The English messages with i18next's interpolation and plural keys, for a host that has no
 * translation system of its own (Headlamp's plugins have none for a plugin's texts).
 *
 * @public
 */
export const englishValuesT: ValuesT = (key, params = {}) => {
  const { count } = params;
  const message =
    (typeof count === 'number'
      ? lookup(valueViewMessages, `${key}_${plurals.select(count)}`)
      : undefined) ?? lookup(valueViewMessages, key);
  if (message === undefined) return key;
  return message.replace(
    PLACEHOLDER,
    (whole, name: string, format?: string) => {
      if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
      const value = params[name];
      return format && typeof value === 'number'
        ? numbers.format(value)
        : String(value);
    },
  );
};
