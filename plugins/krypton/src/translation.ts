import {
  createTranslationRef,
  useTranslationRef,
} from '@backstage/core-plugin-api/alpha';
import {
  outsideChangeMessages,
  ownedSecretMessages,
  previewMessages,
  timeMessages,
  valuesMessages,
  versionMessages,
  workloadMessages,
} from '@krypton/plugin-krypton-react';
import type { ReactElement, ReactNode } from 'react';
import { accessMessages } from './messages/access';
import { changesMessages } from './messages/changes';
import { consumersMessages } from './messages/consumers';
import { deleteMessages } from './messages/delete';
import { detailMessages } from './messages/detail';
import { editMessages } from './messages/edit';
import { historyMessages } from './messages/history';
import { listMessages } from './messages/list';
import { operatorMessages } from './messages/operator';
import { overviewMessages } from './messages/overview';
import { pageMessages } from './messages/page';
import { platformMessages } from './messages/platform';

/**
 * Every word that Krypton's own UI draws, in English, for apps to translate.
 *
 * One area per component folder keeps the keys findable (`history.restore.title`); the `values`
 * and `preview` areas are the words of the value views that the Headlamp plugin shares, and so
 * are `consumers.usage` and `consumers.flags`, the words that describe a consuming workload, and
 * `consumers.versions`, the words that tell which version of the Secret its pods hold (merged into
 * the `consumers` area), `history.outside`, the words of a change made outside
 * Krypton, `owner`, the words that tell who owns a Secret and what a change of it comes to, and
 * `time`, how an exact time is put together. The fixed messages of the API (`messages` in the
 * core, the spec's exact texts) are not here: the UI shows them as the server sent them, because
 * they are the contract that scripts and logs match on.
 *
 * @alpha
 */
export const kryptonTranslationRef = createTranslationRef({
  id: 'krypton',
  messages: {
    access: accessMessages,
    changes: changesMessages,
    consumers: {
      ...consumersMessages,
      ...workloadMessages,
      versions: versionMessages,
    },
    delete: deleteMessages,
    detail: detailMessages,
    edit: editMessages,
    history: { ...historyMessages, outside: outsideChangeMessages },
    list: listMessages,
    operator: operatorMessages,
    overview: overviewMessages,
    owner: ownedSecretMessages,
    page: pageMessages,
    platform: platformMessages,
    preview: previewMessages,
    time: timeMessages,
    values: valuesMessages,
  },
});

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Collapsed<K> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

/** A key of kryptonTranslationRef, with plural forms under their common key. */
export type KryptonKey = Collapsed<keyof typeof kryptonTranslationRef.T>;

/** Interpolation values by name (`count` picks the plural form), and i18next's options. */
type Params = {
  [name: string]: string | number | boolean | null | undefined | Escape;
};
type Escape = { escapeValue?: boolean };

/**
 * The `t` of kryptonTranslationRef. It checks keys, not each message's parameters: Backstage's
 * own `TranslationFunction` type also derives every message's parameters, and with this ref's
 * 733 messages that made the type check of the repository six times slower (about 150 ms a call).
 * translation.test.tsx renders messages with their parameters.
 */
export interface KryptonT {
  (key: KryptonKey, options?: Params): string;
  /** With a JSX element among the values, the message is an element too. */
  (
    key: KryptonKey,
    options: { [name: string]: ReactNode | Escape },
  ): ReactElement;
}

/** The `t` of kryptonTranslationRef in the user's language, for components. */
export function useKryptonT(): KryptonT {
  const { t } = useTranslationRef(kryptonTranslationRef);
  // The cast skips relating Backstage's generic TranslationFunction to KryptonT, which is the
  // cost this type exists to avoid; both take the same keys and options at run time.
  return t as unknown as KryptonT;
}
