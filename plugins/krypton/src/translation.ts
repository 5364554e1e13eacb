import {
  TranslationFunction,
  createTranslationRef,
} from '@backstage/core-plugin-api/alpha';
import { accessMessages } from './messages/access';
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
import { previewMessages } from './messages/preview';
import { timeMessages } from './messages/time';
import { valuesMessages } from './messages/values';

/**
 * Every word that Krypton's own UI draws, in English, for apps to translate.
 *
 * One area per component folder keeps the keys findable (`history.restore.title`). The fixed
 * messages of the API (`messages` in common, the spec's exact texts) are not here: the UI shows
 * them as the server sent them, because they are the contract that scripts and logs match on.
 *
 * @alpha
 */
export const kryptonTranslationRef = createTranslationRef({
  id: 'krypton',
  messages: {
    access: accessMessages,
    consumers: consumersMessages,
    delete: deleteMessages,
    detail: detailMessages,
    edit: editMessages,
    history: historyMessages,
    list: listMessages,
    operator: operatorMessages,
    overview: overviewMessages,
    page: pageMessages,
    platform: platformMessages,
    preview: previewMessages,
    time: timeMessages,
    values: valuesMessages,
  },
});

/**
 * The `t` of kryptonTranslationRef, for pure helpers that build words: the component that calls
 * them passes the `t` of its `useTranslationRef`, so the words follow the user's language.
 */
export type KryptonT = TranslationFunction<typeof kryptonTranslationRef.T>;
