import { mockApis } from '@backstage/test-utils';
import { KryptonT, kryptonTranslationRef } from '../translation';

/** kryptonTranslationRef's `t` in English, for tests of the pure helpers that build words. */
export function englishT(): KryptonT {
  const snapshot = mockApis.translation().getTranslation(kryptonTranslationRef);
  if (!snapshot.ready) throw new Error('the English messages are always ready');
  // The same cast as useKryptonT's, for the same reason.
  return snapshot.t as unknown as KryptonT;
}
