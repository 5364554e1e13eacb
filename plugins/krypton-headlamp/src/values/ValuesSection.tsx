import { SectionBox } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import { splitData } from '@krypton/core';
import { ValuesTable, valueEntries } from '@krypton/plugin-krypton-react';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { text } from '../messages';
import { ShownSecret } from '../shownSecret';
import { HeadlampValues } from './HeadlampValues';

/**
 * The values of the Secret on the view in the shared values table: masked until revealed, with
 * Krypton's previews, Raw and Copy. Read-only: a change goes through Krypton, which keeps the
 * version it replaces.
 */
export function ValuesSection(props: { secret: ShownSecret }) {
  const { native } = props.secret;
  const entries = useMemo(() => {
    const { data, binaryData } = splitData(native.data);
    return valueEntries(data, binaryData);
  }, [native.data]);
  return (
    <SectionBox title={text.values.title}>
      <Typography variant="body2" paragraph>
        {text.values.intro}
      </Typography>
      <HeadlampValues>
        <ValuesTable entries={entries} label={text.values.title} />
      </HeadlampValues>
    </SectionBox>
  );
}
