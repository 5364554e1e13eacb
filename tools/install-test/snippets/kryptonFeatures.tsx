// docs/install.md's snippet for the new frontend system without feature discovery. The install test
// copies this file into the fresh app's packages/app/src and type-checks it there.
import { createApp } from '@backstage/frontend-defaults';
import kryptonPlugin from '@krypton/plugin-krypton/alpha';

export default createApp({
  features: [kryptonPlugin],
});
