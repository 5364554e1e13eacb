import { CodeSnippet, ResponseErrorPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';

/**
 * The cluster's own StorageVersionMigrations of Secrets, which cover what Krypton does not label:
 * whether one created after the last run has succeeded, and the manifest to create one.
 */
export const StorageMigrationsPanel = (props: {
  cluster?: string;
  /** The start of the last run, if any. */
  since?: string;
}) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { value, error } = useAsync(
    () =>
      api.getStorageMigrations({ cluster: props.cluster, since: props.since }),
    [api, props.cluster, props.since],
  );
  if (error) return <ResponseErrorPanel error={error} />;
  if (!value) return null;
  if (!value.served) {
    return (
      <Typography variant="body2" paragraph>
        {t('operator.migrations.notServed')}
      </Typography>
    );
  }
  const list =
    value.migrations
      .map(m => t('operator.migrations.item', { name: m.name, phase: m.phase }))
      .join(', ') || t('operator.migrations.none');
  return (
    <>
      <Typography variant="body2" paragraph>
        {t('operator.migrations.list', { list })}
      </Typography>
      {value.succeededSince === true && (
        <Typography variant="body2" paragraph>
          {t('operator.migrations.succeededSince')}
        </Typography>
      )}
      {value.succeededSince !== true && value.manifest && (
        <>
          <Typography variant="body2">
            {t('operator.migrations.notSucceededSince')}
          </Typography>
          <CodeSnippet
            text={value.manifest}
            language="yaml"
            showCopyCodeButton
          />
        </>
      )}
    </>
  );
};
