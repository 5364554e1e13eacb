// Headlamp supplies this module at run time (the build maps it to window.pluginLib).
import {
  DetailsViewSectionProps,
  registerDetailsViewHeaderActionsProcessor,
  registerDetailsViewSection,
  registerDetailsViewSectionsProcessor,
} from '@kinvolk/headlamp-plugin/lib';
import { connectHeadlamp } from './connect';
import { valuesInPlaceOfData } from './dataSection';
import { editActionOnSecrets } from './editAction';
import { KryptonSecretSection } from './KryptonSecretSection';

/**
 * The id of the header-actions processor, unique among Headlamp's plugins; named for what it
 * first did, and kept, since Headlamp knows a processor by it.
 */
export const HIDE_EDIT_PROCESSOR = 'krypton.hide-edit-on-managed';

/** The id of the sections processor that puts Krypton's Values in place of Headlamp's Data. */
export const VALUES_PROCESSOR = 'krypton.values-in-place-of-data';

/**
 * Registers Krypton on Headlamp's views: its section on Secrets only, its Values in place of
 * Headlamp's Data on managed Secrets, and the Edit processor (hidden on managed Secrets, off with
 * the reason on owned ones).
 */
export function registerKrypton(): void {
  registerDetailsViewSection(({ resource }: DetailsViewSectionProps) =>
    resource?.kind === 'Secret' ? (
      <KryptonSecretSection resource={resource} connect={connectHeadlamp} />
    ) : null,
  );
  registerDetailsViewSectionsProcessor({
    id: VALUES_PROCESSOR,
    processor: valuesInPlaceOfData,
  });
  registerDetailsViewHeaderActionsProcessor({
    id: HIDE_EDIT_PROCESSOR,
    processor: editActionOnSecrets,
  });
}
