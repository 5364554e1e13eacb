import { ComponentType, ReactNode, createContext, useContext } from 'react';
import type { PreviewMode } from './formats';
import type { ValuesT } from './texts';

/**
 * Where a certificate stands against its validity period now; the host's CertificateStatus shows it.
 *
 * @public
 */
export type ExpiryStatus = 'expired' | 'expiring' | 'not-yet-valid' | 'valid';

/**
 * The class names a host styles the value views with, each for one part of them.
 *
 * @public
 */
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
  /** A key in the values table. */
  valueKey: string;
  /** A revealed value in its cell: one line, cut with an ellipsis. */
  cellValue: string;
  /** The buttons of a row. */
  actions: string;
  /** Read by assistive technology, not shown. */
  visuallyHidden: string;
  /** The row under a value that holds its preview or raw text. */
  panel: string;
}

/**
 * How a text of the value views is set: a note in a paragraph, a line, muted, a title, a small
 * muted line under a cell's text, or a small live status (role="status").
 *
 * @public
 */
export type TextKind =
  | 'paragraph'
  | 'body'
  | 'secondary'
  | 'title'
  | 'caption'
  | 'status';

/** @public */
export interface HostTextProps {
  kind: TextKind;
  id?: string;
  children: ReactNode;
}

/** @public */
export interface ModePickerProps {
  modes: readonly PreviewMode[];
  value: PreviewMode;
  onChange: (mode: PreviewMode) => void;
  labelOf: (mode: PreviewMode) => string;
  /** The id of the element that names the choice. */
  labelledBy: string;
}

/**
 * What a button of a value's row does; a host may give each its icon.
 *
 * @public
 */
export type ValueAction = 'reveal' | 'hide' | 'expand' | 'raw' | 'copy';

/** @public */
export interface ActionButtonProps {
  action: ValueAction;
  /** The button's text and accessible name. */
  label: string;
  /** The id of the key the button acts on (aria-describedby). */
  describedBy: string;
  /** aria-expanded, for a button that opens a panel. */
  expanded?: boolean;
  /** aria-controls: the panel it opened. */
  controls?: string;
  /** aria-pressed, for a toggle. */
  pressed?: boolean;
  onClick: () => void;
}

/**
 * The host's table, whose parts take the same props in MUI v4 and v5.
 *
 * @public
 */
export interface TableParts {
  Table: ComponentType<{ label: string; children: ReactNode }>;
  Head: ComponentType<{ children: ReactNode }>;
  Body: ComponentType<{ children: ReactNode }>;
  Row: ComponentType<{ className?: string; children: ReactNode }>;
  Cell: ComponentType<{
    /** The cell that names its row (a `th` with role rowheader). */
    rowHeader?: boolean;
    colSpan?: number;
    id?: string;
    children?: ReactNode;
  }>;
}

/** @public */
export interface CertificateStatusProps {
  status: ExpiryStatus;
  children: string;
}

/**
 * What a host gives the value views: its words, its classes and the few controls that look like
 * the host's own (text, the format choice, a status, a button and a table). Everything the views decide (what is parsed, what is rendered, what a link may
 * be, what stays masked) is in this package, the same for every host.
 *
 * @public
 */
export interface ValuesHost {
  t: ValuesT;
  classes: ValuesClasses;
  Text: ComponentType<HostTextProps>;
  ModePicker: ComponentType<ModePickerProps>;
  CertificateStatus: ComponentType<CertificateStatusProps>;
  ActionButton: ComponentType<ActionButtonProps>;
  table: TableParts;
}

const HostContext = createContext<ValuesHost | undefined>(undefined);

/**
 * Makes a host's pieces available to the value views below it.
 *
 * @public
 */
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
