import { englishT, MessageKeyOf, WithoutPluralSuffix } from '../texts';
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

/**
 * The English messages with i18next's interpolation and plural keys, for a host that has no
 * translation system of its own (Headlamp's plugins have none for a plugin's texts).
 *
 * @public
 */
export const englishValuesT: ValuesT = englishT<
  ValuesTextKey,
  ValuesTextParams
>(valueViewMessages);
