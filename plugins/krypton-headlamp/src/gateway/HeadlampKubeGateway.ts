import { RestKubeGateway } from '@krypton/core';
import { HeadlampSendOptions, headlampSend } from './headlampSend';

/**
 * The KubeGateway of Krypton's engines inside Headlamp: the core's RestKubeGateway (the paths,
 * preconditions and answer checks of the server's gateway) sending through Headlamp's API proxy
 * with the signed-in user's credentials.
 */
export class HeadlampKubeGateway extends RestKubeGateway {
  constructor(options: HeadlampSendOptions) {
    super(headlampSend(options));
  }
}
