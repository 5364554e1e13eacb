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
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { rootRouteRef } from '../../routes';
import { DeletedState } from './deletedState';
import { SecretDetail, isSecretTabId } from './SecretDetail';

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

/**
 * The detail view's route: /secret/:namespace/:name with optional ?cluster=, ?tab= (a tab id),
 * ?rollback=1 (open the restore flow, with ?tab=history) and ?entity= (the catalog entity the user
 * came from, whose workloads the Consumers tab lists first).
 */
export const SecretDetailPage = () => {
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const root = useRouteRef(rootRouteRef);
  const namespace = params.namespace ?? '';
  const name = params.name ?? '';
  const navigate = useNavigate();
  const cluster = search.get('cluster') || undefined;
  const tab = search.get('tab');
  const entityRef = search.get('entity') || undefined;
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
            initialTab={isSecretTabId(tab) ? tab : undefined}
            startRestore={tab === 'history' && search.get('rollback') === '1'}
            // Used once: a reload or a shared link must not open the confirmation again.
            onStartRestoreUsed={() =>
              setSearch(
                current => {
                  const next = new URLSearchParams(current);
                  next.delete('rollback');
                  return next;
                },
                { replace: true },
              )
            }
            entityRef={entityRef}
            onDeleted={(secret, result) => {
              const state: DeletedState = {
                deleted: {
                  secret: { cluster, namespace, name: secret.name },
                  result,
                },
              };
              // A deleted Secret's address must not stay in the history stack as a live page.
              navigate(back, { replace: true, state });
            }}
          />
        )}
      </Content>
    </Page>
  );
};
