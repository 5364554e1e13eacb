import { KubeRestSend, reviewedActor } from '@krypton/core';

export { reviewedUsername } from '@krypton/core';

/** snapshot-by of a version saved from Headlamp when the API server does not say who saved it. */
export const HEADLAMP_ACTOR = 'headlamp';

/**
 * snapshot-by for versions saved from Headlamp: `headlamp:<username>`, asked of the API server once
 * per connection (the core's reviewedActor).
 */
export function headlampActor(send: KubeRestSend): () => Promise<string> {
  return reviewedActor(HEADLAMP_ACTOR, send);
}
