import {
  Fragment,
  ReactNode,
  createElement,
  memo,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useValuesHost } from './host';
import {
  MarkdownDocument,
  MarkdownNode,
  MarkdownPiece,
  ParsedMarkdown,
  parseSteps,
} from './markdownParse';
import { RawText } from './RawText';
import type { ValuesT } from './texts';

/** The only schemes a preview link may use; everything else is shown as text. */
const LIVE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The href a link may keep, or undefined. Relative links count as unsafe too: in a Secret they
 * would resolve against the host's own origin.
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
  t: ValuesT;
  imageClass: string;
  linkClass: string;
  groupClass: string;
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
      // without opener or referrer, so the target page learns neither the host's window nor the
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

/**
 * What a render adds: the whole top-level blocks of one slice in a group, or a container split
 * over several slices in a group of its own, rendered once with the ranges of its children shown
 * so far.
 */
interface BlocksGroup {
  key: string;
  /** The slice that adds this group. */
  slice: number;
  blocks: MarkdownPiece[];
}
interface ContainerGroup {
  key: string;
  slice: number;
  container: MarkdownNode;
  ranges: Array<{ slice: number; from: number; to: number }>;
}
type Group = BlocksGroup | ContainerGroup;

/** The groups of a document, in order; a group of blocks never spans two slices. */
function groupSlices(document: MarkdownDocument): Group[] {
  const groups: Group[] = [];
  document.slices.forEach((pieces, slice) => {
    let open: BlocksGroup | undefined;
    for (const piece of pieces) {
      if (!piece.range) {
        if (!open) {
          open = { key: `b${piece.index}`, slice, blocks: [] };
          groups.push(open);
        }
        open.blocks.push(piece);
        continue;
      }
      open = undefined;
      const range = { slice, ...piece.range };
      const last = groups[groups.length - 1];
      if (last && 'container' in last && last.container === piece.block) {
        last.ranges.push(range);
      } else {
        groups.push({
          key: `c${piece.index}`,
          slice,
          container: piece.block,
          ranges: [range],
        });
      }
    }
  });
  return groups;
}

/** The blocks of one slice. Memoized: adding the next slice does not render it again. */
const BlockGroup = memo(
  ({
    blocks,
    context,
  }: {
    blocks: MarkdownPiece[];
    context: RenderContext;
  }) => (
    <div className={context.groupClass}>
      {blocks.map(({ block, index }) => renderNode(block, index, context))}
    </div>
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

/** The groups that the first `shown` slices add. */
function renderGroups(
  groups: Group[],
  shown: number,
  context: RenderContext,
): ReactNode[] {
  const out: ReactNode[] = [];
  for (const group of groups) {
    if (group.slice >= shown) break;
    if ('blocks' in group) {
      out.push(
        <BlockGroup key={group.key} blocks={group.blocks} context={context} />,
      );
      continue;
    }
    const ranges = group.ranges
      .filter(range => range.slice < shown)
      .map(range => (
        <ChildRange
          key={range.from}
          node={group.container}
          from={range.from}
          to={range.to}
          context={context}
        />
      ));
    out.push(
      <div key={group.key} className={context.groupClass}>
        {renderNode(group.container, 0, context, ranges)}
      </div>,
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
 * committed, so that the page answers input between them. Until the document is parsed, and until
 * the last slice is in, aria-busy is true.
 */
const SlicedDocument = ({ document }: { document?: MarkdownDocument }) => {
  const { t, classes } = useValuesHost();
  const [progress, setProgress] = useState({ document, shown: 1 });
  // A new document starts again from its first slice.
  const shown = progress.document === document ? progress.shown : 1;
  if (progress.document !== document) setProgress({ document, shown });
  const total = document ? document.slices.length : 1;
  useEffect(() => {
    if (!document || shown >= total) return undefined;
    return nextTask(() => setProgress({ document, shown: shown + 1 }));
  }, [document, shown, total]);
  const context = useMemo(
    () => ({
      t,
      imageClass: classes.image,
      linkClass: classes.link,
      groupClass: classes.markdownGroup,
    }),
    [t, classes.image, classes.link, classes.markdownGroup],
  );
  const groups = useMemo(
    () => (document ? groupSlices(document) : []),
    [document],
  );
  return (
    <div className={classes.markdown} aria-busy={!document || shown < total}>
      {renderGroups(groups, shown, context)}
    </div>
  );
};

/** How long one task of parsing may run before the page gets a turn, in ms. */
const PARSE_TASK_MS = 10;

type Parsing =
  | { text: string; parsed: ParsedMarkdown }
  | { text: string; error: unknown };

/**
 * The value parsed in tasks of about PARSE_TASK_MS after the one that rendered it, or undefined
 * until then: parsing the preview bench's runbook at the size limit took 50–70 ms in Chromium, in
 * the task of the click that opened it. A parser that throws throws when the preview renders
 * next, to the preview's error boundary, as it did when it parsed while rendering.
 */
function useParsedMarkdown(text: string): ParsedMarkdown | undefined {
  const [parsing, setParsing] = useState<Parsing>();
  useEffect(() => {
    const steps = parseSteps(text);
    let cancel = () => {};
    const step = () => {
      const deadline = performance.now() + PARSE_TASK_MS;
      try {
        for (;;) {
          const next = steps.next();
          if (next.done) {
            setParsing({ text, parsed: next.value });
            return;
          }
          if (performance.now() >= deadline) break;
        }
      } catch (error) {
        setParsing({ text, error });
        return;
      }
      cancel = nextTask(step);
    };
    cancel = nextTask(step);
    return () => cancel();
  }, [text]);
  if (parsing?.text !== text) return undefined;
  if ('error' in parsing) throw parsing.error;
  return parsing.parsed;
}

export interface MarkdownPreviewProps {
  text: string;
}

/**
 * Markdown as CommonMark, parsed by markdown-it on the main thread a few blocks per task (linear in
 * the value) and rendered from its tokens into a fixed set of elements: no raw HTML, only http,
 * https and mailto links, no images loaded. A document with too many elements or containers
 * nested too deeply is shown as raw text.
 */
export const MarkdownPreview = ({ text }: MarkdownPreviewProps) => {
  const { t, Text } = useValuesHost();
  const parsed = useParsedMarkdown(text);
  if (parsed && !parsed.ok) {
    return (
      <>
        <Text kind="paragraph">
          {parsed.reason === 'elements'
            ? t('preview.markdown.tooManyElements')
            : t('preview.markdown.tooDeep')}
        </Text>
        <RawText text={text} label={t('preview.markdown.rawLabel')} />
      </>
    );
  }
  return <SlicedDocument document={parsed?.document} />;
};
