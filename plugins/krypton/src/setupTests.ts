import { configure } from '@testing-library/react';
import '@testing-library/jest-dom';
import { speedUpStyleCascade } from './__testUtils__/fastCascade';

// Full MUI pages and forms render slowly on a busy 2-core machine: give tests and the
// testing-library queries that wait for the UI room, so that a slow render is not a failure.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 10_000 });

// getComputedStyle was half of the time of the page and form suites: see fastCascade.ts.
speedUpStyleCascade(document);

// MUI's TextareaAutosize (every multiline TextField without fixed rows) measures its height on
// each render: it writes a style and reads getComputedStyle and scrollHeight. jsdom has no layout
// (scrollHeight is always 0, so the height never changes), yet each of these reads costs a full
// style cascade over every stylesheet for the text area and all its ancestors, because the write
// just before it cleared jsdom's style cache: a third of the edit form's test time. Tests
// get what MUI itself renders for a multiline field with fixed rows: a plain text area.
jest.mock('@material-ui/core/TextareaAutosize/TextareaAutosize', () => {
  const { createElement, forwardRef } = jest.requireActual('react');
  return {
    __esModule: true,
    default: forwardRef(
      (
        {
          minRows,
          maxRows: _maxRows,
          rowsMax: _rowsMax,
          rowsMin,
          rows,
          ...other
        }: Record<string, unknown>,
        ref: unknown,
      ) =>
        createElement('textarea', {
          ...other,
          rows: minRows ?? rowsMin ?? rows,
          ref,
        }),
    ),
  };
});
