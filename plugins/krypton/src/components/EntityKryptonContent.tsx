import {
  EmptyState,
  InfoCard,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { useEntity } from '@backstage/plugin-catalog-react';
import { useKryptonAnnotationPrefix } from './annotationPrefix';
import { ConnectionStatus } from './ConnectionStatus';
import {
  SecretRef,
  kryptonSecretsAnnotation,
  linkedSecrets,
} from './linkedSecrets';

const columns: TableColumn<SecretRef>[] = [
  { title: 'Namespace', field: 'namespace' },
  { title: 'Secret', field: 'name' },
];

/** The entity tab: the Secrets that the entity's <prefix>/secrets annotation links to it. */
export const EntityKryptonContent = () => {
  const { entity } = useEntity();
  const prefix = useKryptonAnnotationPrefix();
  const refs = linkedSecrets(entity, prefix);
  if (refs.length === 0) {
    const annotation = kryptonSecretsAnnotation(prefix);
    return (
      <EmptyState
        missing="field"
        title="No Secrets linked"
        description={`Add a ${annotation} annotation (namespace/name, comma-separated) to this entity.`}
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
