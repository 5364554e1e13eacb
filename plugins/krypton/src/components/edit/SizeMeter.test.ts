import { MAX_SECRET_BYTES } from '@krypton/core';
import { englishT } from '../../__testUtils__/englishT';
import { formatSize as formatSizeIn } from './SizeMeter';

const t = englishT();
const formatSize = (bytes: number) => formatSizeIn(t, bytes);

describe('formatSize', () => {
  it('shows small sizes in bytes and KiB', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(812 * 1024 + 1000)).toBe('812 KiB');
  });

  it('never rounds a size that fits up to the limit, nor one over it down', () => {
    expect(formatSize(MAX_SECRET_BYTES - 1)).toBe('1023 KiB');
    expect(formatSize(MAX_SECRET_BYTES)).toBe('1 MiB');
    expect(formatSize(MAX_SECRET_BYTES + 1)).toBe('1.01 MiB');
  });
});
