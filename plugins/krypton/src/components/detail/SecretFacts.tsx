import { InfoCard } from '@backstage/core-components';
import { AccessRules, SecretSummary, messages } from '@krypton/core';
import { ownerToolName } from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Divider from '@material-ui/core/Divider';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { ReactNode } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import { useKryptonAnnotationPrefix } from '../annotationPrefix';
import { EntityRefList } from '../list/EntityRefList';
import { SecretLocation } from '../../api/KryptonApi';
import { formatVersion } from '../list/secretRows';
import { OwnershipBanner } from '../owner';
import { RelativeTime } from '../time/RelativeTime';

const yesNo = (value: boolean, t: KryptonT) =>
  value ? t('detail.facts.yes') : t('detail.facts.no');

/** One label or annotation. */
export interface MetadataEntry {
  key: string;
  value: string;
}

/** A Krypton label or annotation, named without the prefix ("version", "owners", "managed-by"). */
export interface KryptonEntry extends MetadataEntry {
  name: string;
}

export interface GroupedMetadata {
  /** Krypton's own labels and annotations, those under the configured prefix. */
  krypton: KryptonEntry[];
  labels: MetadataEntry[];
  annotations: MetadataEntry[];
}

const byKey = (a: MetadataEntry, b: MetadataEntry) =>
  a.key < b.key ? -1 : Number(a.key > b.key);

/**
 * Splits a Secret's labels and annotations into Krypton's own (under `<prefix>/`) and the rest,
 * each sorted by key. Krypton's are named by what follows the prefix.
 */
export function groupMetadata(
  secret: Pick<SecretSummary, 'labels' | 'annotations'>,
  prefix: string,
): GroupedMetadata {
  const own = `${prefix}/`;
  const grouped: GroupedMetadata = { krypton: [], labels: [], annotations: [] };
  for (const kind of ['labels', 'annotations'] as const) {
    const map = secret[kind] ?? {};
    for (const key of Object.keys(map)) {
      const entry = { key, value: map[key] };
      if (key.startsWith(own) && key.length > own.length) {
        grouped.krypton.push({ ...entry, name: key.slice(own.length) });
      } else grouped[kind].push(entry);
    }
  }
  grouped.krypton.sort(byKey);
  grouped.labels.sort(byKey);
  grouped.annotations.sort(byKey);
  return grouped;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box minWidth={120}>
      <Typography variant="overline" component="dt" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="body1" component="dd" style={{ margin: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

function FactGroup({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  return (
    <Box mt={3} component="section" aria-label={title}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A key and its value in a metadata list: long values scroll instead of stretching the card. */
function Entry({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Box display="flex" style={{ gap: 16 }} py={0.5}>
      <Typography
        variant="body2"
        component="dt"
        color="textSecondary"
        style={{ flex: '0 0 16em', maxWidth: '40%', overflowWrap: 'anywhere' }}
      >
        {name}
      </Typography>
      <Typography
        variant="body2"
        component="dd"
        style={{
          margin: 0,
          flex: 1,
          overflowWrap: 'anywhere',
          maxHeight: '8em',
          overflowY: 'auto',
        }}
      >
        {children}
      </Typography>
    </Box>
  );
}

const ACCESS_NAMES: ReadonlySet<string> = new Set([
  'owners',
  'editors',
  'viewers',
]);

/** Krypton's access annotations as catalog links (the server's parse), everything else as text. */
function kryptonValue(entry: KryptonEntry, access: AccessRules): ReactNode {
  if (ACCESS_NAMES.has(entry.name)) {
    return <EntityRefList refs={access[entry.name as keyof AccessRules]} />;
  }
  return entry.value;
}

function LastChange({ change }: { change: SecretSummary['lastChange'] }) {
  const t = useKryptonT();
  if (!change) return null;
  const time = <RelativeTime value={change.time} />;
  return (
    <Fact label={t('detail.facts.lastChange')}>
      {change.manager
        ? t('detail.facts.lastChangeBy', { time, manager: change.manager })
        : time}
    </Fact>
  );
}

/**
 * What a person looks for first, in one row: the version, when it last changed and by what, who
 * owns it by the access rules, and the tool that owns it, if one does.
 */
function KeyFacts({ secret }: { secret: SecretSummary }) {
  const t = useKryptonT();
  return (
    <Box component="section" aria-label={t('detail.facts.keyFacts')}>
      <Box
        component="dl"
        display="flex"
        flexWrap="wrap"
        style={{ gap: 24, margin: 0 }}
      >
        <Fact label={t('detail.facts.version')}>
          {formatVersion(t, secret.version)}
        </Fact>
        <LastChange change={secret.lastChange} />
        <Fact label={t('detail.facts.owners')}>
          <EntityRefList refs={secret.access.owners} />
        </Fact>
        {secret.owner && (
          <Fact label={t('detail.facts.owningTool')}>
            {ownerToolName(secret.owner, t)}
          </Fact>
        )}
      </Box>
    </Box>
  );
}

export interface SecretFactsProps {
  secret: SecretSummary;
  /** Where the page reads the Secret: an owner sync is asked there too. */
  location?: SecretLocation;
  /**
   * Whether the page already names the Secret (its header does on the Krypton page): the card
   * then takes a neutral title instead of saying the name a second time.
   */
  namedByPage?: boolean;
}

/**
 * The Secret's facts: first what a person looks for (version, last change, owners), then where it
 * lives, its type, flags and age, the tool that owns it and what a change comes to, who owns it
 * in Kubernetes, Krypton's own labels and annotations, and the rest. The name is the card's title
 * unless the page names the Secret already; it is never a fact of its own as well.
 * Sections the summary has nothing for are left out.
 */
export const SecretFacts = ({
  secret,
  location,
  namedByPage = false,
}: SecretFactsProps) => {
  const t = useKryptonT();
  const prefix = useKryptonAnnotationPrefix();
  const grouped = groupMetadata(secret, prefix);
  // The server leaves out annotations that may hold values (all but a known few for readers who
  // may not reveal them); saying how many keeps the list from reading as complete.
  const withheld = secret.withheldAnnotations ?? 0;
  const owners = secret.ownerReferences ?? [];
  return (
    <InfoCard
      title={namedByPage ? t('detail.facts.title') : secret.name}
      subheader={secret.description}
    >
      <KeyFacts secret={secret} />
      <Box my={2}>
        <Divider />
      </Box>
      <Box
        component="dl"
        display="flex"
        flexWrap="wrap"
        style={{ gap: 24, margin: 0 }}
      >
        <Fact label={t('detail.facts.cluster')}>{secret.cluster}</Fact>
        <Fact label={t('detail.facts.namespace')}>{secret.namespace}</Fact>
        <Fact label={t('detail.facts.type')}>{secret.type}</Fact>
        <Fact label={t('detail.facts.managed')}>
          {yesNo(secret.managed, t)}
        </Fact>
        <Fact label={t('detail.facts.immutable')}>
          {yesNo(secret.immutable, t)}
        </Fact>
        <Fact label={t('detail.facts.pendingDeletion')}>
          {secret.deletionTimestamp
            ? t('detail.facts.since', {
                time: <RelativeTime value={secret.deletionTimestamp} />,
              })
            : t('detail.facts.no')}
        </Fact>
        {secret.creationTimestamp && (
          <Fact label={t('detail.facts.created')}>
            <RelativeTime value={secret.creationTimestamp} />
          </Fact>
        )}
      </Box>
      {Boolean(secret.owner || secret.dataAppliedBy?.length) && (
        <Box mt={2}>
          <OwnershipBanner secret={secret} syncAt={location} />
        </Box>
      )}
      {owners.length > 0 && (
        <FactGroup title={t('detail.facts.ownerReferences')}>
          <Box component="ul" m={0} pl={2}>
            {owners.map(ref => (
              <Typography component="li" variant="body2" key={ref.uid}>
                {ref.controller
                  ? t('detail.facts.controller', {
                      owner: `${ref.kind}/${ref.name}`,
                    })
                  : `${ref.kind}/${ref.name}`}
              </Typography>
            ))}
          </Box>
        </FactGroup>
      )}
      {grouped.krypton.length > 0 && (
        <FactGroup title={t('detail.facts.krypton')}>
          <Box component="dl" m={0}>
            {grouped.krypton.map(entry => (
              <Entry key={entry.key} name={entry.name}>
                {kryptonValue(entry, secret.access)}
              </Entry>
            ))}
          </Box>
        </FactGroup>
      )}
      {grouped.labels.length > 0 && (
        <FactGroup title={t('detail.facts.labels')}>
          <Box component="dl" m={0}>
            {grouped.labels.map(entry => (
              <Entry key={entry.key} name={entry.key}>
                {entry.value}
              </Entry>
            ))}
          </Box>
        </FactGroup>
      )}
      {(grouped.annotations.length > 0 || withheld > 0) && (
        <FactGroup title={t('detail.facts.annotations')}>
          {grouped.annotations.length > 0 && (
            <Box component="dl" m={0}>
              {grouped.annotations.map(entry => (
                <Entry key={entry.key} name={entry.key}>
                  {entry.value}
                </Entry>
              ))}
            </Box>
          )}
          {withheld > 0 && (
            <Typography variant="caption" color="textSecondary" component="p">
              {t('detail.facts.withheldAnnotations', { count: withheld })}
            </Typography>
          )}
        </FactGroup>
      )}
      {secret.deletionTimestamp && (
        <Box mt={2}>
          <Alert severity="warning">{t('detail.facts.deleting')}</Alert>
        </Box>
      )}
      {secret.version === null && (
        <Box mt={2}>
          <Alert severity="warning">{messages.invalidCounter}</Alert>
        </Box>
      )}
      {!secret.managed && (
        <Box mt={2}>
          <Alert severity="info">{t('detail.facts.unmanaged')}</Alert>
        </Box>
      )}
    </InfoCard>
  );
};
