import { validateNamespace } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import { FormEvent, useEffect, useId, useState } from 'react';

export interface LocationPickerProps {
  clusters: string[];
  cluster: string;
  namespace: string;
  onChange: (location: { cluster: string; namespace: string }) => void;
}

function namespaceProblem(value: string): string | undefined {
  if (value === '') return 'Enter a namespace.';
  try {
    validateNamespace(value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Which namespace of which cluster the page lists. The cluster applies at once; the namespace when
 * submitted, so that typing does not list every prefix of a name.
 */
export const LocationPicker = (props: LocationPickerProps) => {
  const id = useId();
  const [typed, setTyped] = useState(props.namespace);
  const [touched, setTouched] = useState(false);
  // Navigation (back from a Secret, another link) can change the shown namespace.
  useEffect(() => setTyped(props.namespace), [props.namespace]);
  const problem = namespaceProblem(typed.trim());

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    props.onChange({ cluster: props.cluster, namespace: typed.trim() });
  };

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
      <TextField
        id={`${id}-namespace`}
        label="Namespace"
        value={typed}
        onChange={e => setTyped(e.target.value)}
        error={touched && problem !== undefined}
        helperText={touched && problem ? problem : 'A Kubernetes namespace'}
        variant="outlined"
        size="small"
        inputProps={{ spellCheck: false }}
        style={{ minWidth: 280 }}
      />
      <Button type="submit" variant="contained" color="primary">
        Show Secrets
      </Button>
    </Box>
  );
};
