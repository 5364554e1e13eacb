import { SecretSummary } from '@krypton/core';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { useKryptonT } from '../../translation';

/** The Secret's key names and kinds from its metadata, for readers who may not see values. */
export const KeyList = ({ secret }: { secret: SecretSummary }) => {
  const t = useKryptonT();
  if (secret.keys.length === 0) {
    return <Typography variant="body2">{t('detail.values.noKeys')}</Typography>;
  }
  const binary = new Set(secret.binaryKeys);
  return (
    <Table size="small" aria-label={t('detail.values.keysLabel')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('detail.values.key')}</TableCell>
          <TableCell>{t('detail.values.kind')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {[...secret.keys].sort().map(key => (
          <TableRow key={key}>
            <TableCell component="th" scope="row" role="rowheader">
              {key}
            </TableCell>
            <TableCell>
              {binary.has(key)
                ? t('detail.values.binary')
                : t('detail.values.text')}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
