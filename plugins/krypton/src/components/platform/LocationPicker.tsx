import { useApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import { validateNamespace } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import Autocomplete from '@material-ui/lab/Autocomplete';
import { FormEvent, useEffect, useId, useState } from 'react';
import { kryptonApiRef } from '../../api/KryptonApi';

export interface LocationPickerProps {
  clusters: string[];
  cluster: string;
  namespace: string;
  onChange: (location: { cluster: string; namespace: string }) => void;
}

const TEXT = {
  label: 'Namespace',
  hint: 'A Kubernetes namespace',
  pickHint: 'Pick a namespace, or type its name',
  refused: 'You may not list namespaces here; type a name.',
  failed: 'Krypton could not list the namespaces here; type a name.',
  empty: 'Enter a namespace.',
};

/** What the namespace field offers: the list while it loads, the names, or typing only. */
type Choices =
  | { state: 'loading' }
  | { state: 'listed'; names: string[] }
  | { state: 'typing'; note: string };

function namespaceProblem(value: string): string | undefined {
  if (value === '') return TEXT.empty;
  try {
    validateNamespace(value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The names the user may pick on a cluster, or why they have to type one. */
function useNamespaceChoices(cluster: string): Choices {
  const api = useApi(kryptonApiRef);
  const [choices, setChoices] = useState<Choices>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setChoices({ state: 'loading' });
    // Named even when it is the default cluster: the picker knows names, not which is default.
    api.listNamespaces(cluster || undefined).then(
      names => live && setChoices({ state: 'listed', names }),
      (err: unknown) =>
        live &&
        setChoices({
          state: 'typing',
          note:
            err instanceof ResponseError && err.statusCode === 403
              ? TEXT.refused
              : TEXT.failed,
        }),
    );
    return () => {
      live = false;
    };
  }, [api, cluster]);
  return choices;
}

/**
 * Which namespace of which cluster the page lists. The cluster applies at once, and so does a
 * namespace picked from the list of those the user may list; a typed name applies when submitted,
 * so that typing does not list every prefix of a name. Where the list is refused or fails, the
 * field takes a typed name only.
 */
export const LocationPicker = (props: LocationPickerProps) => {
  const id = useId();
  const choices = useNamespaceChoices(props.cluster);
  const [typed, setTyped] = useState(props.namespace);
  const [touched, setTouched] = useState(false);
  // Navigation (back from a Secret, another link) can change the shown namespace.
  useEffect(() => setTyped(props.namespace), [props.namespace]);
  const problem = namespaceProblem(typed.trim());

  const apply = (namespace: string) => {
    setTouched(true);
    if (namespaceProblem(namespace)) return;
    props.onChange({ cluster: props.cluster, namespace });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(typed.trim());
  };

  const shownProblem = touched ? problem : undefined;
  const fieldProps = {
    label: TEXT.label,
    error: shownProblem !== undefined,
    variant: 'outlined' as const,
    size: 'small' as const,
  };
  const width = { minWidth: 280 };

  return (
    <Box
      component="form"
      onSubmit={submit}
      display="flex"
      alignItems="flex-start"
      flexWrap="wrap"
      style={{ gap: 16 }}
      aria-label="Choose a namespace"
    >
      <TextField
        id={`${id}-cluster`}
        select
        label="Cluster"
        value={props.cluster}
        onChange={e =>
          props.onChange({
            cluster: e.target.value,
            namespace: props.namespace,
          })
        }
        SelectProps={{ native: true }}
        variant="outlined"
        size="small"
        style={{ minWidth: 200 }}
      >
        {props.clusters.map(c => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </TextField>
      {choices.state === 'typing' ? (
        <TextField
          {...fieldProps}
          id={`${id}-namespace`}
          value={typed}
          onChange={e => setTyped(e.target.value)}
          helperText={shownProblem ?? choices.note}
          inputProps={{ spellCheck: false }}
          style={width}
        />
      ) : (
        <Autocomplete<string, false, false, true>
          id={`${id}-namespace`}
          freeSolo
          style={width}
          options={choices.state === 'listed' ? choices.names : []}
          loading={choices.state === 'loading'}
          value={props.namespace || null}
          inputValue={typed}
          onInputChange={(_e, next) => setTyped(next)}
          onChange={(_e, next, reason) => {
            // A typed name waits for the form's submit (Enter submits it too).
            if (reason === 'select-option' && typeof next === 'string')
              apply(next);
          }}
          renderInput={params => (
            <TextField
              {...params}
              {...fieldProps}
              helperText={
                shownProblem ??
                (choices.state === 'listed' ? TEXT.pickHint : TEXT.hint)
              }
              inputProps={{ ...params.inputProps, spellCheck: false }}
            />
          )}
        />
      )}
      <Button type="submit" variant="contained" color="primary">
        Show Secrets
      </Button>
    </Box>
  );
};
