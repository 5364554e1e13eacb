import type { ValuesClasses } from './host';

/**
 * The parts of a host's theme that the value views' styles use; MUI v4 and v5 themes have them.
 *
 * @public
 */
export interface ValuesTheme {
  spacing: (...units: number[]) => string;
  palette: {
    primary: { main: string };
    text: { secondary: string };
    background: { default: string };
    divider: string;
  };
  shape: { borderRadius: number | string };
  typography: {
    body2: { fontSize?: string | number };
    fontWeightMedium?: string | number;
  };
}

/**
 * Read by assistive technology, not shown: the rules of any host's visually hidden text.
 *
 * @public
 */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * One class's rules, in the object syntax that both JSS (MUI v4) and Emotion (MUI v5) read.
 *
 * @public
 */
export interface StyleRules {
  [property: string]: string | number | undefined | StyleRules;
}

/**
 * The rules of every class of ValuesClasses. They are part of what makes a large value cheap to
 * show (containment, content-visibility), so they are written once for every host; a host turns
 * them into class names its own way.
 *
 * @public
 */
export function valuesStyles(
  theme: ValuesTheme,
): Record<keyof ValuesClasses, StyleRules> {
  return {
    raw: {
      margin: 0,
      padding: theme.spacing(1),
      maxHeight: 480,
      overflow: 'auto',
      whiteSpace: 'pre-wrap',
      overflowWrap: 'anywhere',
      // The block takes the width it is given and asks for none: in the values table, whose
      // column widths come from their contents, measuring 131,072 characters for that cost more
      // than laying them out (127 against 52 ms for the bench's runbook in Chromium).
      contain: 'inline-size',
      fontFamily: 'monospace',
      fontSize: theme.typography.body2.fontSize,
      backgroundColor: theme.palette.background.default,
      border: `1px solid ${theme.palette.divider}`,
      borderRadius: theme.shape.borderRadius,
    },
    // The browser skips style, layout and paint of a block outside the scrolled view until it
    // comes near; it stays in the page for selection, find-in-page and assistive technology.
    rawBlock: {
      display: 'block',
      'content-visibility': 'auto',
    },
    markdown: {
      overflowWrap: 'anywhere',
      // As the raw block: the preview takes the width of the values table and asks for none.
      // Otherwise the table measures every element of the preview for its column widths at each
      // frame, and a list that grows by a slice at a time was measured again, whole, after every
      // slice.
      contain: 'inline-size',
      '& pre': {
        whiteSpace: 'pre-wrap',
        padding: theme.spacing(1),
        backgroundColor: theme.palette.background.default,
      },
    },
    // A slice's top-level blocks, or a container split over slices. The browser skips style,
    // layout and paint of a group outside the viewport until it comes near; it stays in the page
    // for find-in-page and assistive technology. One group per slice, not one per block: Chromium
    // tracks each such element's distance to the viewport at every frame, and the runbook of the
    // preview bench has about 1,400 blocks.
    markdownGroup: {
      'content-visibility': 'auto',
      // Until a group has been laid out once, its height is a guess: a slice's weight of list
      // items or prose is several thousand pixels. An element of the preview never has a style
      // attribute.
      'contain-intrinsic-block-size': 'auto 200lh',
      // The group contains its children's margins; between two groups, the next block's top
      // margin is the gap, as when the margins collapsed.
      '& > :last-child': { marginBottom: 0 },
    },
    // A link as one class: a host's link component costs per link, and a runbook has hundreds.
    link: {
      color: theme.palette.primary.main,
      textDecoration: 'none',
      '&:hover, &:focus-visible': { textDecoration: 'underline' },
    },
    image: {
      fontStyle: 'italic',
      color: theme.palette.text.secondary,
    },
    toolbar: {
      display: 'flex',
      flexWrap: 'wrap',
      alignItems: 'center',
      gap: theme.spacing(1),
      marginBottom: theme.spacing(1),
    },
    pemList: { listStyle: 'none', padding: 0, margin: theme.spacing(1, 0, 0) },
    pemBlock: { marginBottom: theme.spacing(1.5) },
    pemFields: {
      display: 'grid',
      gridTemplateColumns: 'max-content 1fr',
      columnGap: theme.spacing(2),
      margin: theme.spacing(0.5, 0, 0),
      '& dt': { fontWeight: theme.typography.fontWeightMedium },
      '& dd': { margin: 0, overflowWrap: 'anywhere' },
    },
    valueKey: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
    cellValue: {
      display: 'block',
      maxWidth: 360,
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
      fontFamily: 'monospace',
    },
    actions: {
      display: 'flex',
      flexWrap: 'wrap',
      alignItems: 'center',
      gap: theme.spacing(0.5),
    },
    visuallyHidden: { ...VISUALLY_HIDDEN },
    panel: { backgroundColor: theme.palette.background.default },
  };
}
