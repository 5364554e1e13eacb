import { Route, Routes } from 'react-router-dom';
import { SecretDetailPage } from './detail/SecretDetailPage';
import { StorageRewritePage } from './operator/StorageRewritePage';
import { SecretsHome } from './platform/SecretsHome';

/**
 * The standalone page for platform teams: the Secrets of a namespace, one Secret's detail view
 * under secretRouteRef's path (relative to wherever the app mounts the page), with its tab as an
 * optional last segment, and the operators' storage rewrite under storageRewriteRouteRef's path.
 *
 * @public
 */
export const KryptonPage = () => (
  <Routes>
    <Route path="/" element={<SecretsHome />} />
    <Route
      path="secret/:namespace/:name/:tab?"
      element={<SecretDetailPage />}
    />
    <Route path="storage-rewrite" element={<StorageRewritePage />} />
  </Routes>
);
