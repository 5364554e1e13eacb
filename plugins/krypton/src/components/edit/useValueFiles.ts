import { useState } from 'react';
import { useKryptonT } from '../../translation';
import { newRowId } from './draft';
import { keyFromFileName, readFileValue } from './fileValue';
import { PinnedDraft } from './useDraft';

export interface ValueFiles {
  /** Why the last file was refused, until the next one is read or the user dismisses it. */
  fileError?: string;
  dismissFileError: () => void;
  /** Fills a text row's value (and an empty key) from the file. */
  loadFile: (id: string, file: File) => Promise<void>;
  /** Adds a binary row holding the file's bytes; only a create form has those. */
  addBinaryFile: (file: File) => Promise<void>;
}

/**
 * Reads the files the user picks into the draft's rows. The refusal lives with the form, not the
 * values section, so it survives the section being swapped for the withheld notice and back.
 */
export function useValueFiles(
  update: PinnedDraft['update'],
  isEdit: boolean,
): ValueFiles {
  const t = useKryptonT();
  const [fileError, setFileError] = useState<string>();
  const notTextHint = isEdit
    ? t('edit.form.notTextHint.edit')
    : t('edit.form.notTextHint.create');
  // The row may be gone, or the draft reset by a save or reload, by the time the file is read:
  // the update then finds no row of that id and changes nothing.
  const loadFile = async (id: string, file: File) => {
    const read = await readFileValue(file, 'text', notTextHint, t);
    if (read.kind === 'refused') {
      setFileError(read.reason);
      return;
    }
    if (read.kind !== 'text') return;
    setFileError(undefined);
    const suggested = keyFromFileName(file.name);
    update(d => ({
      ...d,
      rows: d.rows.map(row =>
        row.id === id
          ? {
              ...row,
              value: read.text,
              key: row.key === '' && suggested ? suggested : row.key,
            }
          : row,
      ),
    }));
  };
  const addBinaryFile = async (file: File) => {
    const read = await readFileValue(file, 'binary', notTextHint, t);
    if (read.kind === 'refused') {
      setFileError(read.reason);
      return;
    }
    if (read.kind !== 'binary') return;
    setFileError(undefined);
    update(d => ({
      ...d,
      binaryRows: [
        ...d.binaryRows,
        {
          id: newRowId(),
          key: keyFromFileName(file.name) ?? '',
          base64: read.base64,
          fileName: file.name,
          size: read.size,
        },
      ],
    }));
  };

  return {
    fileError,
    dismissFileError: () => setFileError(undefined),
    loadFile,
    addBinaryFile,
  };
}
