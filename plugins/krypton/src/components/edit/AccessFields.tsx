import { useApiHolder } from '@backstage/core-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { CatalogApi, catalogApiRef } from '@backstage/plugin-catalog-react';
import { kindOfRef, tryNormalizeEntityRef } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import GroupIcon from '@material-ui/icons/Group';
import PersonIcon from '@material-ui/icons/Person';
import Alert from '@material-ui/lab/Alert';
import Autocomplete from '@material-ui/lab/Autocomplete';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useKryptonT } from '../../translation';
import {
  ACCESS_RULE_LISTS,
  AccessRuleList,
  formatRefs,
  splitRefs,
} from './draft';

/** How many catalog entities one search shows, and how many refs one lookup names. */
const SEARCH_LIMIT = 20;
const LOOKUP_LIMIT = 100;
const SEARCH_DELAY_MS = 250;
const ENTITY_FIELDS = [
  'kind',
  'metadata.namespace',
  'metadata.name',
  'metadata.title',
  'spec.profile.displayName',
];

export interface AccessFieldsProps {
  /** Comma-separated entity refs per role, as the draft holds them. */
  values: Record<AccessRuleList, string>;
  errors: Partial<Record<AccessRuleList, string>>;
  onChange: (role: AccessRuleList, value: string) => void;
  /**
   * Pick users and groups from the catalog. Where the app has no catalog, or a catalog request
   * fails, the fields fall back to typed refs. Without it the fields are typed refs.
   */
  picker?: boolean;
}

/** What the catalog says about a ref: its display name, or that it does not know it. */
type Known = { found: true; title: string } | { found: false };

function displayName(entity: Entity): string {
  const profile = (entity.spec as { profile?: { displayName?: unknown } })
    ?.profile;
  if (typeof profile?.displayName === 'string' && profile.displayName !== '') {
    return profile.displayName;
  }
  return entity.metadata.title ?? entity.metadata.name;
}

function kindIcon(normalRef: string | undefined) {
  if (normalRef === undefined) return undefined;
  return kindOfRef(normalRef) === 'group' ? <GroupIcon /> : <PersonIcon />;
}

const normalRefOf = (entity: Entity) =>
  tryNormalizeEntityRef(stringifyEntityRef(entity));

/** One role's refs as chips, with catalog search; every ref already there stays visible. */
function RefPicker(props: {
  catalog: CatalogApi;
  id: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onCatalogError: () => void;
}) {
  const { catalog, onCatalogError } = props;
  const t = useKryptonT();
  const refs = useMemo(() => splitRefs(props.value), [props.value]);
  const [known, setKnown] = useState<ReadonlyMap<string, Known>>(new Map());
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<string[]>([]);
  const [searching, setSearching] = useState(false);

  // Looks up the refs the catalog has not been asked about yet, so each chip shows a display
  // name or "unknown". A ref the catalog does not know stays a chip: it is never dropped.
  const unasked = useMemo(() => {
    const out: string[] = [];
    for (const ref of refs) {
      const normal = tryNormalizeEntityRef(ref);
      if (normal !== undefined && !known.has(normal) && !out.includes(normal))
        out.push(normal);
    }
    return out.slice(0, LOOKUP_LIMIT);
  }, [refs, known]);
  useEffect(() => {
    if (unasked.length === 0) return undefined;
    let live = true;
    catalog
      .getEntitiesByRefs({ entityRefs: unasked, fields: ENTITY_FIELDS })
      .then(({ items }) => {
        if (!live) return;
        setKnown(current => {
          const next = new Map(current);
          unasked.forEach((ref, i) => {
            const entity = items[i];
            next.set(
              ref,
              entity
                ? { found: true, title: displayName(entity) }
                : { found: false },
            );
          });
          return next;
        });
      })
      .catch(() => live && onCatalogError());
    return () => {
      live = false;
    };
  }, [catalog, unasked, onCatalogError]);

  // Searches users and groups by name, title and display name, a bounded page at a time.
  useEffect(() => {
    if (!open) return undefined;
    let live = true;
    const term = input.trim();
    setSearching(true);
    const timer = setTimeout(() => {
      catalog
        .queryEntities({
          filter: { kind: ['User', 'Group'] },
          ...(term !== ''
            ? {
                fullTextFilter: {
                  term,
                  fields: [
                    'metadata.name',
                    'metadata.title',
                    'spec.profile.displayName',
                  ],
                },
              }
            : {}),
          orderFields: { field: 'metadata.name', order: 'asc' },
          limit: SEARCH_LIMIT,
          fields: ENTITY_FIELDS,
        })
        .then(({ items }) => {
          if (!live) return;
          const found: string[] = [];
          const titles = new Map<string, Known>();
          for (const entity of items) {
            const ref = normalRefOf(entity);
            if (ref === undefined || found.includes(ref)) continue;
            found.push(ref);
            titles.set(ref, { found: true, title: displayName(entity) });
          }
          setKnown(current => new Map([...current, ...titles]));
          setOptions(found);
        })
        .catch(() => live && onCatalogError())
        .finally(() => live && setSearching(false));
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [catalog, input, open, onCatalogError]);

  const titleOf = (ref: string) => {
    const normal = tryNormalizeEntityRef(ref);
    const entry = normal === undefined ? undefined : known.get(normal);
    return entry?.found ? entry.title : ref;
  };
  const sameRef = (a: string, b: string) =>
    (tryNormalizeEntityRef(a) ?? a) === (tryNormalizeEntityRef(b) ?? b);

  return (
    <Autocomplete<string, true, false, false>
      multiple
      id={props.id}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={refs}
      options={options}
      // The catalog filters; the picker shows its answer as it is, less what is already chosen.
      filterOptions={list => list}
      filterSelectedOptions
      getOptionSelected={sameRef}
      getOptionLabel={titleOf}
      loading={searching}
      inputValue={input}
      onInputChange={(_e, next, reason) => {
        if (reason !== 'reset') setInput(next);
      }}
      onChange={(_e, next) => {
        setInput('');
        props.onChange(formatRefs(next));
      }}
      renderOption={ref => (
        <Box>
          <Typography variant="body2">{titleOf(ref)}</Typography>
          <Typography variant="caption" color="textSecondary">
            {ref}
          </Typography>
        </Box>
      )}
      renderTags={(chosen, getTagProps) =>
        chosen.map((ref, index) => {
          const normal = tryNormalizeEntityRef(ref);
          const entry = normal === undefined ? undefined : known.get(normal);
          let label = titleOf(ref);
          let problem = false;
          if (normal === undefined) {
            label = t('edit.access.notARef', { ref: ref.slice(0, 64) });
            problem = true;
          } else if (entry && !entry.found) {
            label = t('edit.access.unknown', { ref });
            problem = true;
          }
          return (
            <Chip
              {...getTagProps({ index })}
              key={`${ref}-${index}`}
              size="small"
              // A user and a group may share a name: the icon tells them apart.
              icon={kindIcon(normal)}
              label={label}
              title={ref}
              variant={problem ? 'outlined' : 'default'}
              color={problem ? 'secondary' : 'default'}
              data-ref={ref}
            />
          );
        })
      }
      renderInput={params => (
        <TextField
          {...params}
          label={props.label}
          error={props.error !== undefined}
          helperText={props.error ?? t('edit.access.pickerHint')}
          margin="dense"
          variant="outlined"
          inputProps={{ ...params.inputProps, spellCheck: false }}
        />
      )}
    />
  );
}

/** The Secret's access rules as entity refs. Rendered only for owners and admins. */
export function AccessFields({
  values,
  errors,
  onChange,
  picker = false,
}: AccessFieldsProps) {
  const t = useKryptonT();
  const fieldId = useId();
  const apis = useApiHolder();
  const catalog = picker ? apis.get(catalogApiRef) : undefined;
  const [catalogFailed, setCatalogFailed] = useState(false);
  const onCatalogError = useCallback(() => setCatalogFailed(true), []);
  const fromCatalog = catalog !== undefined && !catalogFailed;
  return (
    <Box>
      <Typography variant="subtitle1" component="h3">
        {t('edit.access.heading')}
      </Typography>
      {catalogFailed && (
        <Alert severity="warning">{t('edit.access.catalogFailed')}</Alert>
      )}
      {ACCESS_RULE_LISTS.map(role =>
        fromCatalog ? (
          <RefPicker
            key={role}
            catalog={catalog}
            id={`${fieldId}-${role}`}
            label={t(`edit.access.${role}`)}
            value={values[role]}
            error={errors[role]}
            onChange={value => onChange(role, value)}
            onCatalogError={onCatalogError}
          />
        ) : (
          <TextField
            key={role}
            id={`${fieldId}-${role}`}
            label={t(`edit.access.${role}`)}
            value={values[role]}
            onChange={e => onChange(role, e.target.value)}
            error={errors[role] !== undefined}
            helperText={errors[role] ?? t('edit.access.typedHint')}
            fullWidth
            margin="dense"
            variant="outlined"
            inputProps={{ spellCheck: false }}
          />
        ),
      )}
    </Box>
  );
}
