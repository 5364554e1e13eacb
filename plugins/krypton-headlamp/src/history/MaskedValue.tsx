import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { text } from '../messages';

/**
 * One side's text value, masked until the user reveals this very value. Until then only the mask
 * is in the DOM, and the value is rendered as a text node, never parsed, so nothing in it becomes
 * markup. The parent remounts it for another version, which masks it again.
 */
export function MaskedValue(props: {
  value: string;
  keyName: string;
  side: string;
}) {
  const [revealed, setRevealed] = useState(false);
  return (
    <Box display="flex" alignItems="center" flexWrap="wrap" gap={1}>
      {revealed ? (
        <Box
          component="code"
          sx={{
            maxWidth: 360,
            maxHeight: 160,
            overflow: 'auto',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {props.value}
        </Box>
      ) : (
        <span>
          <span aria-hidden="true">{text.diff.mask}</span>
          <Box component="span" sx={VISUALLY_HIDDEN}>
            {text.diff.hidden}
          </Box>
        </span>
      )}
      <Button
        size="small"
        aria-label={(revealed ? text.diff.hideValue : text.diff.revealValue)(
          props.keyName,
          props.side,
        )}
        onClick={() => setRevealed(r => !r)}
      >
        {revealed ? text.diff.hide : text.diff.reveal}
      </Button>
    </Box>
  );
}
