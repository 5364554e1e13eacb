import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { useMemo } from 'react';
import ReactMarkdown, { Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import { RawText } from './RawText';

/** The only schemes a preview link may use; everything else is shown as text. */
const LIVE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The href a link may keep, or undefined. Relative links count as unsafe too: in a Secret they
 * would resolve against Backstage's own origin.
 */
export function safeLinkHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const candidate = href.trim();
  // An explicit, absolute prefix first: "java\tscript:" or "//host" never get as far as URL().
  if (!/^(?:https?:\/\/|mailto:)/i.test(candidate)) return undefined;
  try {
    const url = new URL(candidate);
    return LIVE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** How an image is described instead of being loaded. */
export function describeImage(
  alt: string | undefined,
  src: string | undefined,
): string {
  return `Image: ${alt || 'no description'} (${
    src || 'no address'
  }) — not loaded`;
}

/**
 * The Markdown parser under react-markdown 8 (micromark 3) slows down faster than linearly with
 * list items, quote nesting and brackets: within the 131,072-character limit, 32,768 one-line list
 * items took 46 s to parse in Node and 131,072 "]" took 88 s. Below these counts a value parses in
 * about a second; no real note in a Secret comes near them.
 */
const MAX_CONTAINER_MARKERS = 2048;
const MAX_BRACKETS = 8192;

// The container prefix of a line: quote markers and list markers, in any nesting. Each repetition
// consumes a marker, so matching is linear.
const CONTAINER_PREFIX =
  /^[ \t]*(?:(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*)+/gm;
const CONTAINER_MARKER = />|[-*+]|\d{1,9}[.)]/g;

/** Whether parsing the value as Markdown could freeze the page; it is then shown raw instead. */
export function markdownTooComplex(text: string): boolean {
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5b || code === 0x5d) brackets++;
  }
  if (brackets > MAX_BRACKETS) return true;
  let markers = 0;
  for (const prefix of text.matchAll(CONTAINER_PREFIX)) {
    markers += prefix[0].match(CONTAINER_MARKER)?.length ?? 0;
    if (markers > MAX_CONTAINER_MARKERS) return true;
  }
  return false;
}

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

// Parents whose children are blocks; elsewhere an html node is inline.
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem']);

function htmlToCode(node: MdNode): void {
  if (!node.children) return;
  const block = BLOCK_PARENTS.has(node.type);
  node.children = node.children.map(child => {
    if (child.type === 'html') {
      return { type: block ? 'code' : 'inlineCode', value: child.value ?? '' };
    }
    htmlToCode(child);
    return child;
  });
}

/**
 * remark plugin: raw HTML becomes code, so a reader sees what the value contains while the markup
 * is never parsed (no rehype-raw). rehype-sanitize would drop it silently otherwise.
 */
function remarkHtmlAsCode() {
  return (tree: MdNode) => htmlToCode(tree);
}

const useStyles = makeStyles(theme => ({
  root: {
    overflowWrap: 'anywhere',
    '& pre': {
      whiteSpace: 'pre-wrap',
      padding: theme.spacing(1),
      backgroundColor: theme.palette.background.default,
    },
  },
  image: {
    fontStyle: 'italic',
    color: theme.palette.text.secondary,
  },
}));

const ImageAsText = ({ alt, src }: { alt?: string; src?: string }) => {
  const classes = useStyles();
  return <span className={classes.image}>{describeImage(alt, src)}</span>;
};

const components: Components = {
  // Never an <a> with an unsafe href; a live link opens only when activated, in a new tab without
  // opener or referrer, so the target page learns neither Backstage's window nor the URL.
  a: ({ href, title, children }) => {
    const safe = safeLinkHref(href);
    if (!safe) return <span>{children}</span>;
    return (
      <Link
        href={safe}
        title={title}
        target="_blank"
        rel="noopener noreferrer"
        referrerPolicy="no-referrer"
      >
        {children}
      </Link>
    );
  },
  // Never an <img>: loading it would reveal the viewer to whoever controls the address.
  img: ({ alt, src }) => <ImageAsText alt={alt} src={src} />,
};

export interface MarkdownPreviewProps {
  text: string;
}

/** Markdown through react-markdown and rehype-sanitize's default (GitHub) schema. */
export const MarkdownPreview = ({ text }: MarkdownPreviewProps) => {
  const classes = useStyles();
  const tooComplex = useMemo(() => markdownTooComplex(text), [text]);
  if (tooComplex) {
    return (
      <>
        <Typography variant="body2" paragraph>
          This value has too many lists, quotes or brackets to preview as
          Markdown; showing the raw text.
        </Typography>
        <RawText text={text} label="Raw Markdown text" />
      </>
    );
  }
  return (
    <div className={classes.root}>
      <ReactMarkdown
        remarkPlugins={[remarkHtmlAsCode]}
        rehypePlugins={[rehypeSanitize]}
        components={components}
        // The component above is the gate; this keeps unsafe hrefs out of the tree entirely.
        transformLinkUri={href => safeLinkHref(href) ?? ''}
        // Shown as text only, so the address is kept as written for the description.
        transformImageUri={src => src}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
};
