import MarkdownIt, { type Options, type Token } from 'markdown-it';
import { skipUnclosableBrackets } from './markdownBrackets';

/**
 * Containers (quotes, lists, emphasis, links) nested deeper than this are refused. markdown-it
 * stops parsing a block's tail at its nesting cap, so a value that reaches it would be shown in
 * part; and the renderer recurses once per level.
 */
export const MAX_NESTING = 64;

/**
 * The most elements a preview renders. Parsing is linear (131,072 code units of unclosed brackets
 * parse in about 20 ms in Node, with the rule of markdownBrackets.ts), but rendering costs per
 * element: the runbook of the preview bench has about 3,700 at the size limit, a note of short
 * list items can have 30,000. Above this, the raw text is shown.
 */
export const MAX_ELEMENTS = 16_384;

/**
 * How much of a document one render adds at a time: elements, plus one for every 64 code units of
 * text, whose layout costs too. Slices are committed in separate tasks, so that the page answers
 * input between them.
 */
export const SLICE_WEIGHT = 512;

// CommonMark, as react-markdown parsed it before (no tables, no autolinked bare URLs). Raw HTML
// is recognised so that it can be shown as code; nothing renders markdown-it's HTML output.
// maxNesting is an option of markdown-it that its type definitions leave out.
const options: Options & { maxNesting: number } = {
  html: true,
  linkify: false,
  typographer: false,
  maxNesting: MAX_NESTING,
};
const parser = new MarkdownIt('commonmark', options);
// markdown-it drops links with a scheme it dislikes and leaves their whole markup as text. The
// preview keeps the link text and decides about the address in one place (safeLinkHref); an image
// address is only ever described, so it is kept as written.
parser.validateLink = () => true;
parser.normalizeLink = url => url;
skipUnclosableBrackets(parser);

// markdown-it's core rules of the CommonMark preset are normalize, block, inline and text_join.
// These two run the ones before and after the inline phase on the parser's own state, so that the
// inline phase can go a few blocks at a time (see parseSteps).
const blockPhase = new MarkdownIt('commonmark');
blockPhase.core.ruler.enableOnly(['normalize', 'block']);
const joinPhase = new MarkdownIt('commonmark');
joinPhase.core.ruler.enableOnly(['text_join']);

/** How much inline source is parsed between two steps, in code units. */
const INLINE_STEP_UNITS = 2048;

/**
 * The tokens of a value, exactly as markdown-it's parse gives them (a test compares the two), in
 * steps: it yields after the block structure and after every INLINE_STEP_UNITS code units of
 * inline markup, so that a caller can give the page a turn between them.
 */
export function* tokenSteps(text: string): Generator<void, Token[], void> {
  const state = new parser.core.State(text, parser, {});
  blockPhase.core.process(state);
  yield;
  let parsed = 0;
  for (const token of state.tokens) {
    if (token.type !== 'inline') continue;
    // What markdown-it's inline core rule does for each inline token.
    const children = token.children ?? [];
    token.children = children;
    parser.inline.parse(token.content, parser, state.env, children);
    parsed += token.content.length;
    if (parsed >= INLINE_STEP_UNITS) {
      parsed = 0;
      yield;
    }
  }
  joinPhase.core.process(state);
  return state.tokens;
}

/** One node of a parsed document: a markdown-it token with its children. */
export interface MarkdownNode {
  token: Token;
  children: MarkdownNode[];
}

/**
 * A part of a document that one render adds: a top-level block, or for a long list or quote a
 * range of its children (the container itself is rendered with the first range).
 */
export interface MarkdownPiece {
  /** The top-level block's position in the document. */
  index: number;
  block: MarkdownNode;
  /** The range of the block's children, for a container split over several slices. */
  range?: { from: number; to: number };
}

/** A document in slices, each rendered in a task of its own. */
export interface MarkdownDocument {
  slices: MarkdownPiece[][];
  elements: number;
}

export type ParsedMarkdown =
  | { ok: true; document: MarkdownDocument }
  | { ok: false; reason: 'elements' | 'nesting' };

interface Tree {
  nodes: MarkdownNode[];
  elements: number;
  deepest: number;
}

// Tokens that render no element of their own (a tight list's paragraphs are hidden, too).
const NOT_ELEMENTS = { inline: true, text: true, softbreak: true };

/** Opening and closing tokens become nodes with children, in one pass with a stack. */
function toTree(tokens: Token[]): Tree {
  const nodes: MarkdownNode[] = [];
  const stack: MarkdownNode[][] = [nodes];
  let elements = 0;
  let deepest = 0;
  for (const token of tokens) {
    if (token.block && token.nesting === 1) {
      deepest = Math.max(deepest, token.level);
    }
    if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const node: MarkdownNode = { token, children: [] };
    // An inline token holds a paragraph's or heading's inline markup; an image, its alt text.
    if (token.children) {
      const inline = toTree(token.children);
      node.children = inline.nodes;
      elements += inline.elements;
    }
    if (!(token.type in NOT_ELEMENTS) && !token.hidden) elements++;
    stack[stack.length - 1].push(node);
    if (token.nesting === 1) stack.push(node.children);
  }
  return { nodes, elements, deepest };
}

// The containers whose children can be rendered over several slices.
const SPLITTABLE = {
  bullet_list_open: true,
  ordered_list_open: true,
  blockquote_open: true,
};

/** A block's weight for slicing: its elements, and its text at one per 64 code units. */
function weightOf(node: MarkdownNode): number {
  let weight = 1 + node.token.content.length / 64;
  if (node.token.type === 'inline') weight = 0;
  for (const child of node.children) weight += weightOf(child);
  return weight;
}

/**
 * Parses a value as CommonMark for the preview, or says why it will not be previewed, in the steps
 * of tokenSteps. Linear in the value's length; the caller has already applied the preview's size
 * limit.
 */
export function* parseSteps(
  text: string,
): Generator<void, ParsedMarkdown, void> {
  const tokens = yield* tokenSteps(text);
  return documentOf(tokens);
}

/** parseSteps at once. */
export function parseMarkdown(text: string): ParsedMarkdown {
  const steps = parseSteps(text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The tokens as a document in slices, or the reason why they will not be previewed. */
function documentOf(tokens: Token[]): ParsedMarkdown {
  const tree = toTree(tokens);
  // markdown-it drops the rest of a block nested to its cap, so reaching it means text is missing.
  // Inline markup nested past it stays as text, and is not counted.
  if (tree.deepest >= MAX_NESTING - 1) return { ok: false, reason: 'nesting' };
  if (tree.elements > MAX_ELEMENTS) return { ok: false, reason: 'elements' };

  const slices: MarkdownPiece[][] = [];
  let current: MarkdownPiece[] = [];
  let weight = 0;
  const add = (piece: MarkdownPiece, pieceWeight: number) => {
    current.push(piece);
    weight += pieceWeight;
    if (weight >= SLICE_WEIGHT) {
      slices.push(current);
      current = [];
      weight = 0;
    }
  };
  tree.nodes.forEach((block, index) => {
    const blockWeight = weightOf(block);
    if (blockWeight < SLICE_WEIGHT || !(block.token.type in SPLITTABLE)) {
      add({ index, block }, blockWeight);
      return;
    }
    // A long list or quote: its items (or blocks) in ranges, so that no slice is much heavier
    // than SLICE_WEIGHT. Only the top level is split; the element budget bounds what remains.
    let from = 0;
    let rangeWeight = 0;
    block.children.forEach((child, i) => {
      rangeWeight += weightOf(child);
      if (
        weight + rangeWeight >= SLICE_WEIGHT ||
        i === block.children.length - 1
      ) {
        add({ index, block, range: { from, to: i + 1 } }, rangeWeight);
        from = i + 1;
        rangeWeight = 0;
      }
    });
  });
  if (current.length > 0 || slices.length === 0) slices.push(current);
  return { ok: true, document: { slices, elements: tree.elements } };
}
