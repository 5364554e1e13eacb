import {
  EmptyState,
  InfoCard,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { useEntity } from '@backstage/plugin-catalog-react';
import { ConnectionStatus } from './ConnectionStatus';
import {
  KRYPTON_SECRETS_ANNOTATION,
  SecretRef,
  linkedSecrets,
} from './linkedSecrets';

const columns: TableColumn<SecretRef>[] = [
  { title: 'Namespace', field: 'namespace' },
  { title: 'Secret', field: 'name' },
];

/** The entity tab: the Secrets that the entity's krypton.io/secrets annotation links to it. */
export const EntityKryptonContent = () => {
  const { entity } = useEntity();
  const refs = linkedSecrets(entity);
  if (refs.length === 0) {
    return (
      <EmptyState
        missing="field"
        title="No Secrets linked"
        description={`Add a ${KRYPTON_SECRETS_ANNOTATION} annotation (namespace/name, comma-separated) to this entity.`}
      />
    );
  }
  return (
    <>
      <InfoCard title="Krypton">
        <ConnectionStatus />
      </InfoCard>
      <Table<SecretRef>
        title="Linked Secrets"
        options={{ paging: false, search: false }}
        columns={columns}
        data={refs}
      />
    </>
  );
};
