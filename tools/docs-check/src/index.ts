export {
  headingAnchors,
  isExternal,
  markdownLinks,
  navFiles,
  slugify,
} from './markdown';
export type { MarkdownLink } from './markdown';
