import {
  Content,
  Header,
  Page,
  WarningPanel,
} from '@backstage/core-components';
import { useRouteRef } from '@backstage/core-plugin-api';
import {
  isSnapshotName,
  validateNamespace,
  validateSecretName,
} from '@krypton/plugin-krypton-common';
import { useParams, useSearchParams } from 'react-router-dom';
import { rootRouteRef } from '../../routes';
import { SecretDetail } from './SecretDetail';

/** Why the address cannot name a served Secret, checked before anything is asked of the backend. */
function addressProblem(namespace: string, name: string): string | undefined {
  try {
    validateNamespace(namespace);
    validateSecretName(name);
  } catch (e) {
    return (e as Error).message;
  }
  return isSnapshotName(name)
    ? 'History snapshots are reached through their live Secret.'
    : undefined;
}

/** The detail view's route: /secret/:namespace/:name with an optional ?cluster=. */
export const SecretDetailPage = () => {
  const params = useParams();
  const [search] = useSearchParams();
  const root = useRouteRef(rootRouteRef);
  const namespace = params.namespace ?? '';
  const name = params.name ?? '';
  const cluster = search.get('cluster') || undefined;
  const problem = addressProblem(namespace, name);
  // Back to the list of the same namespace (and cluster), where the user most likely came from.
  const back = `${root()}?${new URLSearchParams(
    cluster ? { cluster, namespace } : { namespace },
  )}`;
  return (
    <Page themeId="tool">
      <Header
        title={name}
        subtitle={`${cluster ?? 'Default cluster'} / ${namespace}`}
        type="Krypton"
        typeLink={back}
      />
      <Content>
        {problem ? (
          <WarningPanel title="Not a Secret address" message={problem} />
        ) : (
          <SecretDetail
            key={`${cluster ?? ''}/${namespace}/${name}`}
            location={{ cluster, namespace, name }}
          />
        )}
      </Content>
    </Page>
  );
};
