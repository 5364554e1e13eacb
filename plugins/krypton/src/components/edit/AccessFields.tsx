import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useId } from 'react';
import { ACCESS_ROLES, AccessRole } from './draft';

const LABELS: Record<AccessRole, string> = {
  owners: 'Owners',
  editors: 'Editors',
  viewers: 'Viewers',
};

export interface AccessFieldsProps {
  values: Record<AccessRole, string>;
  errors: Partial<Record<AccessRole, string>>;
  onChange: (role: AccessRole, value: string) => void;
}

/** The Secret's access rules as comma-separated entity refs. Rendered only for owners and admins. */
export function AccessFields({ values, errors, onChange }: AccessFieldsProps) {
  const fieldId = useId();
  return (
    <Box>
      <Typography variant="subtitle1" component="h3">
        Access
      </Typography>
      {ACCESS_ROLES.map(role => (
        <TextField
          key={role}
          id={`${fieldId}-${role}`}
          label={LABELS[role]}
          value={values[role]}
          onChange={e => onChange(role, e.target.value)}
          error={errors[role] !== undefined}
          helperText={
            errors[role] ??
            'Comma-separated user or group refs, such as user:default/alice, group:default/team-a'
          }
          fullWidth
          margin="dense"
          variant="outlined"
          inputProps={{ spellCheck: false }}
        />
      ))}
    </Box>
  );
}
