import { Progress, WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { kryptonApiRef } from '../api/KryptonApi';

/** Shows whether Krypton's backend answers, so a broken deployment is visible at once. */
export const ConnectionStatus = () => {
  const api = useApi(kryptonApiRef);
  const { loading, error } = useAsync(() => api.getHealth(), [api]);
  if (loading) return <Progress />;
  if (error) {
    return (
      <WarningPanel
        title="Krypton's backend is unavailable"
        message={error.message}
      />
    );
  }
  return (
    <Typography variant="body2">Krypton's backend is connected.</Typography>
  );
};
