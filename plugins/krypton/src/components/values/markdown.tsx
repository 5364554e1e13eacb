import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import {
  Fragment,
  ReactNode,
  createElement,
  memo,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import {
  MarkdownDocument,
  MarkdownNode,
  MarkdownPiece,
  parseMarkdown,
} from './markdownParse';
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

const useStyles = makeStyles(theme => ({
  root: {
    overflowWrap: 'anywhere',
    // As RawText: the preview takes the width of the values table and asks for none. Otherwise
    // the table measures every element of the preview for its column widths at each frame, and a
    // list that grows by a slice at a time was measured again, whole, after every slice.
    contain: 'inline-size',
    '& pre': {
      whiteSpace: 'pre-wrap',
      padding: theme.spacing(1),
      backgroundColor: theme.palette.background.default,
    },
    // The browser skips style, layout and paint of the blocks outside the viewport until they
    // come near it; they stay in the page for find-in-page and assistive technology.
    '& > *': {
      'content-visibility': 'auto',
      'contain-intrinsic-size': 'auto 3em',
    },
  },
  // Material UI's Link, as one class: its component costs per link, and a runbook has hundreds.
  link: {
    color: theme.palette.primary.main,
    textDecoration: 'none',
    '&:hover, &:focus-visible': { textDecoration: 'underline' },
  },
  image: {
    fontStyle: 'italic',
    color: theme.palette.text.secondary,
  },
}));

// The tags that a node may become: the block and inline elements of CommonMark that the GitHub
// schema of rehype-sanitize allowed before. A token's own tag is never rendered as such.
const ELEMENTS: Readonly<Record<string, string>> = {
  blockquote_open: 'blockquote',
  bullet_list_open: 'ul',
  list_item_open: 'li',
  em_open: 'em',
  strong_open: 'strong',
};
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** The alt text of an image: its label's text without markup, as a screen reader would read it. */
function plainText(nodes: MarkdownNode[]): string {
  return nodes
    .map(({ token, children }) => {
      if (token.type === 'softbreak' || token.type === 'hardbreak') return ' ';
      if (token.type === 'image') return plainText(children);
      return token.nesting === 0 ? token.content : plainText(children);
    })
    .join('');
}

/** A fence's language as a class name, as the sanitizer kept it ("language-bash"), or none. */
function languageClass(info: string): string | undefined {
  const language = info.trim().split(/\s/, 1)[0];
  return /^[\w#+.-]{1,64}$/.test(language) ? `language-${language}` : undefined;
}

interface RenderContext {
  t: KryptonT;
  imageClass: string;
  linkClass: string;
}

/**
 * One node as React elements. Text only ever becomes a text node, which React escapes; raw HTML
 * is shown as code; links keep an address only through safeLinkHref; images are described.
 */
function renderNode(
  node: MarkdownNode,
  key: number,
  context: RenderContext,
  inner?: ReactNode,
): ReactNode {
  const { token } = node;
  // `inner` stands for the children of a container rendered over several slices.
  const children = () =>
    inner ?? node.children.map((child, i) => renderNode(child, i, context));
  switch (token.type) {
    case 'text':
      return token.content;
    case 'softbreak':
      return '\n';
    case 'hardbreak':
      return <br key={key} />;
    case 'hr':
      return <hr key={key} />;
    case 'code_inline':
    case 'html_inline':
      return <code key={key}>{token.content}</code>;
    case 'code_block':
    case 'html_block':
    case 'fence':
      return (
        <pre key={key}>
          <code
            className={
              token.type === 'fence' ? languageClass(token.info) : undefined
            }
          >
            {token.content}
          </code>
        </pre>
      );
    case 'paragraph_open':
      // The paragraphs of a tight list are not shown as such.
      return token.hidden ? (
        <Fragment key={key}>{children()}</Fragment>
      ) : (
        <p key={key}>{children()}</p>
      );
    case 'heading_open':
      return createElement(
        HEADINGS.has(token.tag) ? token.tag : 'p',
        { key },
        children(),
      );
    case 'ordered_list_open': {
      const start = Number(token.attrGet('start') ?? 1);
      return (
        <ol key={key} start={Number.isSafeInteger(start) ? start : undefined}>
          {children()}
        </ol>
      );
    }
    case 'link_open': {
      // Never an <a> with an unsafe href; a live link opens only when activated, in a new tab
      // without opener or referrer, so the target page learns neither Backstage's window nor the
      // URL.
      const safe = safeLinkHref(token.attrGet('href') ?? undefined);
      if (!safe) return <span key={key}>{children()}</span>;
      return (
        <a
          key={key}
          className={context.linkClass}
          href={safe}
          title={token.attrGet('title') ?? undefined}
          target="_blank"
          rel="noopener noreferrer"
          referrerPolicy="no-referrer"
        >
          {children()}
        </a>
      );
    }
    case 'image': {
      // Never an <img>: loading it would reveal the viewer to whoever controls the address.
      const alt = plainText(node.children);
      const src = token.attrGet('src');
      return (
        <span key={key} className={context.imageClass}>
          {context.t('preview.markdown.image', {
            alt: alt || context.t('preview.markdown.imageNoDescription'),
            src: src || context.t('preview.markdown.imageNoAddress'),
          })}
        </span>
      );
    }
    case 'inline':
      return <Fragment key={key}>{children()}</Fragment>;
    default: {
      const tag = ELEMENTS[token.type];
      if (tag) return createElement(tag, { key }, children());
      // Nothing else comes out of the CommonMark preset; anything would be shown as its text.
      return token.nesting === 1 ? (
        <Fragment key={key}>{children()}</Fragment>
      ) : (
        token.content
      );
    }
  }
}

/** A whole top-level block. Memoized: adding the next slice does not render it again. */
const Block = memo(
  ({ node, context }: { node: MarkdownNode; context: RenderContext }) => (
    <>{renderNode(node, 0, context)}</>
  ),
);

/** Some children of a container that is rendered over several slices; memoized too. */
const ChildRange = memo(
  ({
    node,
    from,
    to,
    context,
  }: {
    node: MarkdownNode;
    from: number;
    to: number;
    context: RenderContext;
  }) => (
    <>
      {node.children
        .slice(from, to)
        .map((child, i) => renderNode(child, from + i, context))}
    </>
  ),
);

/** The pieces shown so far, a container split over slices as one element with its ranges. */
function renderPieces(
  pieces: MarkdownPiece[],
  context: RenderContext,
): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < pieces.length; ) {
    const { index, block, range } = pieces[i];
    if (!range) {
      out.push(<Block key={index} node={block} context={context} />);
      i++;
      continue;
    }
    const ranges: ReactNode[] = [];
    for (; i < pieces.length && pieces[i].index === index; i++) {
      const r = pieces[i].range!;
      ranges.push(
        <ChildRange
          key={r.from}
          node={block}
          from={r.from}
          to={r.to}
          context={context}
        />,
      );
    }
    out.push(
      <Fragment key={index}>{renderNode(block, 0, context, ranges)}</Fragment>,
    );
  }
  return out;
}

/**
 * Runs `callback` in a task of its own, after the input that is waiting. A message on a
 * MessageChannel is not delayed, and the browser paints when a frame is due; after setTimeout(0),
 * clamped to 4 ms once nested, Chromium painted after nearly every slice: a list of 16,382 items
 * took 2.4–3.3 s to append in 97 slices that way, 0.7–1.4 s this way (the DOM alone, without
 * React). Returns the cancel function.
 */
function nextTask(callback: () => void): () => void {
  if (typeof MessageChannel === 'undefined') {
    const timer = setTimeout(callback, 0);
    return () => clearTimeout(timer);
  }
  const channel = new MessageChannel();
  const close = () => {
    channel.port1.close();
    channel.port2.close();
  };
  channel.port1.onmessage = () => {
    close();
    callback();
  };
  channel.port2.postMessage(null);
  return close;
}

/**
 * A parsed document, one slice per task: the first at once, each next one after the previous was
 * committed, so that the page answers input between them. aria-busy stays true until the last
 * slice is in.
 */
const SlicedDocument = ({ document }: { document: MarkdownDocument }) => {
  const classes = useStyles();
  const t = useKryptonT();
  const [progress, setProgress] = useState({ document, shown: 1 });
  // A new document starts again from its first slice.
  const shown = progress.document === document ? progress.shown : 1;
  if (progress.document !== document) setProgress({ document, shown });
  const total = document.slices.length;
  useEffect(() => {
    if (shown >= total) return undefined;
    return nextTask(() => setProgress({ document, shown: shown + 1 }));
  }, [document, shown, total]);
  const context = useMemo(
    () => ({ t, imageClass: classes.image, linkClass: classes.link }),
    [t, classes.image, classes.link],
  );
  return (
    <div className={classes.root} aria-busy={shown < total}>
      {renderPieces(document.slices.slice(0, shown).flat(), context)}
    </div>
  );
};

export interface MarkdownPreviewProps {
  text: string;
}

/**
 * Markdown as CommonMark, parsed by markdown-it on the main thread (linear in the value; the
 * preview bench's runbook at the size limit parses in about 20 ms) and rendered from its tokens
 * into a fixed set of elements: no raw HTML, only http, https and mailto links, no images loaded.
 * A document with too many elements or containers nested too deeply is shown as raw text.
 */
export const MarkdownPreview = ({ text }: MarkdownPreviewProps) => {
  const t = useKryptonT();
  const parsed = useMemo(() => parseMarkdown(text), [text]);
  if (!parsed.ok) {
    return (
      <>
        <Typography variant="body2" paragraph>
          {parsed.reason === 'elements'
            ? t('preview.markdown.tooManyElements')
            : t('preview.markdown.tooDeep')}
        </Typography>
        <RawText text={text} label={t('preview.markdown.rawLabel')} />
      </>
    );
  }
  return <SlicedDocument document={parsed.document} />;
};
