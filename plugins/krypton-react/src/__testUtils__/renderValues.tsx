import { RenderResult, render } from '@testing-library/react';
import { ReactElement } from 'react';
import {
  ActionButtonProps,
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
  TableParts,
  ValuesClasses,
  ValuesHost,
  ValuesHostProvider,
} from '../values/host';
import { englishValuesT } from '../values/texts';

// Each class named after its part, so that a test can find a part by the class the host gave it.
const classes: ValuesClasses = {
  raw: 'raw',
  rawBlock: 'raw-block',
  markdown: 'markdown',
  markdownGroup: 'markdown-group',
  link: 'link',
  image: 'image',
  toolbar: 'toolbar',
  pemList: 'pem-list',
  pemBlock: 'pem-block',
  pemFields: 'pem-fields',
  valueKey: 'value-key',
  cellValue: 'cell-value',
  actions: 'actions',
  visuallyHidden: 'visually-hidden',
  panel: 'panel',
};

const Text = ({ kind, id, children }: HostTextProps) =>
  kind === 'paragraph' || kind === 'title' ? (
    <p id={id}>{children}</p>
  ) : (
    <span id={id} role={kind === 'status' ? 'status' : undefined}>
      {children}
    </span>
  );

const ModePicker = (props: ModePickerProps) => (
  <div role="group" aria-labelledby={props.labelledBy}>
    {props.modes.map(mode => (
      <button
        key={mode}
        type="button"
        aria-pressed={mode === props.value}
        onClick={() => props.onChange(mode)}
      >
        {props.labelOf(mode)}
      </button>
    ))}
  </div>
);

const CertificateStatus = ({ status, children }: CertificateStatusProps) => (
  <span data-status={status}>{children}</span>
);

const ActionButton = (props: ActionButtonProps) => (
  <button
    type="button"
    data-action={props.action}
    aria-describedby={props.describedBy}
    aria-expanded={props.expanded}
    aria-controls={props.controls}
    aria-pressed={props.pressed}
    onClick={props.onClick}
  >
    {props.label}
  </button>
);

const table: TableParts = {
  Table: ({ label, children }) => <table aria-label={label}>{children}</table>,
  Head: ({ children }) => <thead>{children}</thead>,
  Body: ({ children }) => <tbody>{children}</tbody>,
  Row: ({ className, children }) => <tr className={className}>{children}</tr>,
  Cell: ({ rowHeader, children, ...rest }) =>
    rowHeader ? (
      <th scope="row" {...rest}>
        {children}
      </th>
    ) : (
      <td {...rest}>{children}</td>
    ),
};

/** The plainest host: HTML elements, English words, one class per part. */
export const testHost: ValuesHost = {
  t: englishValuesT,
  classes,
  Text,
  ModePicker,
  CertificateStatus,
  ActionButton,
  table,
};

/** Renders value views inside the test host; async like Backstage's renderInTestApp. */
export async function renderValues(ui: ReactElement): Promise<RenderResult> {
  return render(<ValuesHostProvider host={testHost}>{ui}</ValuesHostProvider>);
}
