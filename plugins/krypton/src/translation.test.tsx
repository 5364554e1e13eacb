import { createTranslationMessages } from '@backstage/core-plugin-api/alpha';
import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { TranslationBlueprint } from '@backstage/plugin-app-react';
import { ConsumerWorkload } from '@krypton/core';
import { screen, within } from '@testing-library/react';
import { RestartDialog } from './components/consumers/RestartDialog';
import { VersionsSummary } from './components/consumers/VersionsSummary';
import {
  versions,
  versionsSummary,
} from './components/consumers/__testUtils__/consumers';
import { DeletedNotice } from './components/delete';
import { SecretValues } from './components/values';
import { kryptonTranslationRef } from './translation';

/**
 * An app's own words for Krypton, as an app supplies them: messages for the translation ref,
 * loaded by the app's real translation API (i18next), not a mock that returns the defaults.
 */
const appWords = createTranslationMessages({
  ref: kryptonTranslationRef,
  messages: {
    'consumers.dialog.title': 'Roll the apps that read {{name}}?',
    'consumers.dialog.confirm_one': 'Roll {{count}} app',
    'consumers.dialog.confirm_other': 'Roll {{count}} apps',
    'values.table.key': 'Entry',
    'values.size.bytes_one': '{{count}} octet',
    'values.size.bytes_other': '{{count}} octets',
    'delete.notices.deletedTitle': 'Gone for good: {{namespace}}/{{name}}',
    'consumers.versions.summary.staleOne_one':
      '{{count}} of {{pods}} pods is stuck on version {{stale}} (live: {{version}})',
    'consumers.versions.summary.staleOne_other':
      '{{count}} of {{pods}} pods are stuck on version {{stale}} (live: {{version}})',
  },
});

function renderWithAppWords(element: JSX.Element) {
  return renderInTestApp(element, {
    features: [
      createFrontendModule({
        pluginId: 'app',
        extensions: [
          TranslationBlueprint.make({
            name: 'krypton-words',
            params: { resource: appWords },
          }),
        ],
      }),
    ],
  });
}

function workload(name: string): ConsumerWorkload {
  return {
    kind: 'Deployment',
    name,
    usages: [{ type: 'env' }],
    paused: false,
    onDelete: false,
    reloader: false,
    labels: {},
  };
}

function restartDialog(workloads: ConsumerWorkload[]) {
  return (
    <RestartDialog
      open
      secretName="db"
      namespace="demo"
      workloads={workloads}
      discoveryFailures={[]}
      onConfirm={() => undefined}
      onCancel={() => undefined}
    />
  );
}

describe('the translation ref', () => {
  it("shows an app's words, interpolated, in place of Krypton's own", async () => {
    renderWithAppWords(restartDialog([workload('api'), workload('worker')]));
    const dialog = await screen.findByRole('dialog', {
      name: 'Roll the apps that read db?',
    });
    expect(dialog).not.toHaveTextContent('Restart the consumers of db?');
  });

  it("interpolates values into an app's words in every area", async () => {
    renderWithAppWords(
      <DeletedNotice
        secret={{ namespace: 'demo', name: 'db' }}
        result={{ status: 'deleted', history: 'kept' }}
      />,
    );
    expect(
      await screen.findByText('Gone for good: demo/db'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Deleted demo/db')).not.toBeInTheDocument();
  });

  it("picks the app's plural form by count", async () => {
    renderWithAppWords(restartDialog([workload('api'), workload('worker')]));
    expect(
      await screen.findByRole('button', { name: 'Roll 2 apps' }),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Restart 2 workloads' }),
    ).not.toBeInTheDocument();
  });

  it("picks the app's singular form for one", async () => {
    renderWithAppWords(restartDialog([workload('api')]));
    expect(
      await screen.findByRole('button', { name: 'Roll 1 app' }),
    ).toBeInTheDocument();
  });

  it("names a table's columns and sizes in the app's words", async () => {
    renderWithAppWords(
      <SecretValues data={{ one: 'x', three: 'abc' }} binaryData={{}} />,
    );
    const table = await screen.findByRole('table', { name: 'Values' });
    expect(
      within(table).getByRole('columnheader', { name: 'Entry' }),
    ).toBeInTheDocument();
    expect(
      within(table).queryByRole('columnheader', { name: 'Key' }),
    ).not.toBeInTheDocument();
    expect(within(table).getByText('1 octet')).toBeInTheDocument();
    expect(within(table).getByText('3 octets')).toBeInTheDocument();
  });

  it("renders the shared words of the pods' versions in the app's words, by count", async () => {
    renderWithAppWords(
      <VersionsSummary
        result={versions({
          summary: versionsSummary({
            pods: 7,
            current: 4,
            stale: 3,
            staleVersions: [7],
            allCurrent: false,
          }),
        })}
      />,
    );
    expect(
      await screen.findByText('3 of 7 pods are stuck on version 7 (live: 3)'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/still hold/)).toBeNull();
  });
});
