// @iconify/icons-mdi ships one identical declaration file per icon (7,367 of them). Yarn's store
// (nmMode: hardlinks-global) links identical files to one inode, so every install on a machine
// adds 7,367 links to it; after about eight installs that inode reaches the file system's limit
// of 65,000 links, and later installs go without the file. The page uses three icons, whose type
// is declared here so that the type check does not depend on that file.
declare module '@iconify/icons-mdi/*' {
  import type { IconifyIcon } from '@iconify/react';

  const data: IconifyIcon;
  export default data;
}
