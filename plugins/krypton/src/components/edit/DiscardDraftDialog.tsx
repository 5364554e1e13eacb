import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import { useEffect, useId } from 'react';
import { useKryptonT } from '../../translation';

/** Asks before a draft with changes is thrown away; Escape and the backdrop keep it. */
export function DiscardDraftDialog(props: {
  open: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  const t = useKryptonT();
  const titleId = useId();
  return (
    <Dialog open={props.open} onClose={props.onKeep} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('edit.discard.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('edit.discard.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onDiscard}>{t('edit.discard.discard')}</Button>
        <Button onClick={props.onKeep} color="primary" variant="contained">
          {t('edit.discard.keepEditing')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * While `active`, closing or reloading the browser tab asks first (the browser's own prompt:
 * pages may not word it).
 */
export function useBeforeUnload(active: boolean): void {
  useEffect(() => {
    if (!active) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
