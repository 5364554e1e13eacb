import { Content, Header, InfoCard, Page } from '@backstage/core-components';
import { ConnectionStatus } from './ConnectionStatus';
import { StorageOperatorSection } from './operator/StorageOperatorSection';

/** The standalone page for platform teams. */
export const KryptonPage = () => (
  <Page themeId="tool">
    <Header title="Krypton" subtitle="Versioned Kubernetes Secrets" />
    <Content>
      <InfoCard title="Status">
        <ConnectionStatus />
      </InfoCard>
      <StorageOperatorSection />
    </Content>
  </Page>
);
