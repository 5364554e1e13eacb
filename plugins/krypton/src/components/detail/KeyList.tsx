import { SecretSummary } from '@krypton/plugin-krypton-common';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';

/** The Secret's key names and kinds from its metadata, for readers who may not see values. */
export const KeyList = ({ secret }: { secret: SecretSummary }) => {
  if (secret.keys.length === 0) {
    return <Typography variant="body2">The Secret has no keys.</Typography>;
  }
  const binary = new Set(secret.binaryKeys);
  return (
    <Table size="small" aria-label="Keys">
      <TableHead>
        <TableRow>
          <TableCell>Key</TableCell>
          <TableCell>Kind</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {[...secret.keys].sort().map(key => (
          <TableRow key={key}>
            <TableCell component="th" scope="row" role="rowheader">
              {key}
            </TableCell>
            <TableCell>{binary.has(key) ? 'binary' : 'text'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
