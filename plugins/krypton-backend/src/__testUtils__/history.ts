import { createHash } from 'node:crypto';

/** The spec's binding hash, synchronously: the first 32 hex characters of SHA-256. */
export const hash32 = (text: string) =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

export const b64 = (text: string) =>
  Buffer.from(text, 'utf8').toString('base64');

/** A Secret's base64 data map as text. */
export const decode = (map: Record<string, string> | undefined) =>
  Object.fromEntries(
    Object.entries(map ?? {}).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString('utf8'),
    ]),
  );

/** A small seeded PRNG, so a race makes the same plan each run (the interleaving still varies). */
export function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
