import { useApi } from '@backstage/core-plugin-api';
import { validateNamespace } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import Autocomplete from '@material-ui/lab/Autocomplete';
import { FormEvent, useEffect, useId, useState } from 'react';
import { kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { KryptonT, useKryptonT } from '../../translation';

export interface LocationPickerProps {
  clusters: string[];
  cluster: string;
  namespace: string;
  onChange: (location: { cluster: string; namespace: string }) => void;
}

/** What the namespace field offers: the list while it loads, the names, or typing only. */
type Choices =
  | { state: 'loading' }
  | { state: 'listed'; names: string[] }
  | { state: 'typing'; note: string };

function namespaceProblem(t: KryptonT, value: string): string | undefined {
  if (value === '') return t('platform.picker.empty');
  try {
    validateNamespace(value);
    return undefined;
  } catch (e) {
    // The rule's own text from the core, as the API would answer it.
    return (e as Error).message;
  }
}

/** The names the user may pick on a cluster, or why they have to type one. */
function useNamespaceChoices(cluster: string): Choices {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
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
            failureOf(err).kind === 'forbidden'
              ? t('platform.picker.refused')
              : t('platform.picker.failed'),
        }),
    );
    return () => {
      live = false;
    };
  }, [api, cluster, t]);
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
  const t = useKryptonT();
  const choices = useNamespaceChoices(props.cluster);
  const [typed, setTyped] = useState(props.namespace);
  const [touched, setTouched] = useState(false);
  // Navigation (back from a Secret, another link) can change the shown namespace.
  useEffect(() => setTyped(props.namespace), [props.namespace]);
  const problem = namespaceProblem(t, typed.trim());

  const apply = (namespace: string) => {
    setTouched(true);
    if (namespaceProblem(t, namespace)) return;
    props.onChange({ cluster: props.cluster, namespace });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(typed.trim());
  };

  const shownProblem = touched ? problem : undefined;
  const fieldProps = {
    label: t('platform.picker.namespace'),
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
      aria-label={t('platform.picker.formLabel')}
    >
      <TextField
        id={`${id}-cluster`}
        select
        label={t('platform.picker.cluster')}
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
                (choices.state === 'listed'
                  ? t('platform.picker.pickHint')
                  : t('platform.picker.hint'))
              }
              inputProps={{ ...params.inputProps, spellCheck: false }}
            />
          )}
        />
      )}
      <Button type="submit" variant="contained" color="primary">
        {t('platform.picker.show')}
      </Button>
    </Box>
  );
};
