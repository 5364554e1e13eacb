import { RenderResult, render } from '@testing-library/react';
import { ReactElement } from 'react';
import {
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
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
};

const Text = ({ kind, id, children }: HostTextProps) =>
  kind === 'paragraph' || kind === 'title' ? (
    <p id={id}>{children}</p>
  ) : (
    <span id={id}>{children}</span>
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

/** The plainest host: HTML elements, English words, one class per part. */
export const testHost: ValuesHost = {
  t: englishValuesT,
  classes,
  Text,
  ModePicker,
  CertificateStatus,
};

/** Renders value views inside the test host; async like Backstage's renderInTestApp. */
export async function renderValues(ui: ReactElement): Promise<RenderResult> {
  return render(<ValuesHostProvider host={testHost}>{ui}</ValuesHostProvider>);
}
