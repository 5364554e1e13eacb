// The engine entry has always exported inPool from here; the helper itself is isomorphic and
// lives with the root entry, which the frontend may import.
export { inPool } from '../pool';
