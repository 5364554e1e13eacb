// Headlamp supplies this module at run time (the build maps it to window.pluginLib).
import {
  DetailsViewSectionProps,
  registerDetailsViewHeaderActionsProcessor,
  registerDetailsViewSection,
} from '@kinvolk/headlamp-plugin/lib';
import { connectHeadlamp } from './connect';
import { hideEditOnManaged } from './editAction';
import { KryptonSecretSection } from './KryptonSecretSection';

/** The id of the header-actions processor, unique among Headlamp's plugins. */
export const HIDE_EDIT_PROCESSOR = 'krypton.hide-edit-on-managed';

/** Registers Krypton on Headlamp's views: its section on Secrets only, and the Edit processor. */
export function registerKrypton(): void {
  registerDetailsViewSection(({ resource }: DetailsViewSectionProps) =>
    resource?.kind === 'Secret' ? (
      <KryptonSecretSection resource={resource} connect={connectHeadlamp} />
    ) : null,
  );
  registerDetailsViewHeaderActionsProcessor({
    id: HIDE_EDIT_PROCESSOR,
    processor: hideEditOnManaged,
  });
}
