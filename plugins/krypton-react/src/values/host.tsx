import { ComponentType, ReactNode, createContext, useContext } from 'react';
import type { PreviewMode } from './formats';
import type { ExpiryStatus } from './pem';
import type { ValuesT } from './texts';

/** The class names a host styles the value views with, each for one part of them. */
export interface ValuesClasses {
  /** A block of raw text (a `pre`): monospace, scrolling, wrapping anywhere. */
  raw: string;
  /** A block of lines of a long raw text, laid out only near the view (content-visibility). */
  rawBlock: string;
  /** The Markdown preview's root; its `pre` children are code blocks. */
  markdown: string;
  /** A group of Markdown blocks laid out only near the view (content-visibility). */
  markdownGroup: string;
  /** A live link in a Markdown preview. */
  link: string;
  /** The description of an image, which is never loaded. */
  image: string;
  /** The row of the format choice above a preview. */
  toolbar: string;
  /** The list of PEM blocks and of subject alternative names. */
  pemList: string;
  /** One PEM block. */
  pemBlock: string;
  /** A certificate's fields, a `dl`. */
  pemFields: string;
}

/** How a text of the value views is set: a note in a paragraph, a line, muted, or a title. */
export type TextKind = 'paragraph' | 'body' | 'secondary' | 'title';

export interface HostTextProps {
  kind: TextKind;
  id?: string;
  children: ReactNode;
}

export interface ModePickerProps {
  modes: readonly PreviewMode[];
  value: PreviewMode;
  onChange: (mode: PreviewMode) => void;
  labelOf: (mode: PreviewMode) => string;
  /** The id of the element that names the choice. */
  labelledBy: string;
}

export interface CertificateStatusProps {
  status: ExpiryStatus;
  children: string;
}

/**
 * What a host gives the value views: its words, its classes and the few controls that look like
 * the host's own. Everything the views decide (what is parsed, what is rendered, what a link may
 * be, what stays masked) is in this package, the same for every host.
 */
export interface ValuesHost {
  t: ValuesT;
  classes: ValuesClasses;
  Text: ComponentType<HostTextProps>;
  ModePicker: ComponentType<ModePickerProps>;
  CertificateStatus: ComponentType<CertificateStatusProps>;
}

const HostContext = createContext<ValuesHost | undefined>(undefined);

/** Makes a host's pieces available to the value views below it. */
export function ValuesHostProvider(props: {
  host: ValuesHost;
  children: ReactNode;
}) {
  return (
    <HostContext.Provider value={props.host}>
      {props.children}
    </HostContext.Provider>
  );
}

/** The host of the value views; a view outside a ValuesHostProvider is a programming error. */
export function useValuesHost(): ValuesHost {
  const host = useContext(HostContext);
  if (!host) {
    throw new Error('Krypton value views need a ValuesHostProvider');
  }
  return host;
}
