import { RestartStatus } from '@krypton/core';
import { KryptonT } from '../../translation';

/** The headline of a restart's status, in the user's words. */
export const statusHeadline = (status: RestartStatus, t: KryptonT): string =>
  t(`consumers.result.headlines.${status}`);
