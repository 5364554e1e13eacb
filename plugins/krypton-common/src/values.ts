/**
 * The rules of the value views, for `@krypton/plugin-krypton-react`: the preview limit and the
 * encodings that decide how a value is listed. A subpath of its own, so that a host bundles
 * neither the root entry (Backstage's permission client, which the Headlamp build cannot resolve)
 * nor the engines (which the Backstage frontend never carries).
 *
 * @packageDocumentation
 */
export { PREVIEW_LIMIT_CODE_UNITS } from './limits';
export { base64DecodedLength, isBase64, utf8Length } from './encoding';
