// What the plugin uses of Headlamp's CommonComponents, from their own modules. The component
// tests alias `@kinvolk/headlamp-plugin/lib/CommonComponents` here (vitest.config.mjs): the
// components are Headlamp's real ones, without loading every other component of its index
// (terminal, editor, charts), which would triple the run time.
export { SectionBox } from '@kinvolk/headlamp-plugin/lib/components/common/SectionBox';
export { default as Loader } from '@kinvolk/headlamp-plugin/lib/components/common/Loader';
export { StatusLabel } from '@kinvolk/headlamp-plugin/lib/components/common/Label';
