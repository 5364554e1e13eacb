import { endianness } from 'node:os';
import { listenersIn } from './procfs';

const header =
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';

function row(local: string, state: string, inode: number): string {
  return `   0: ${local} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000     0        0 ${inode} 1 0000000000000000 100 0 0 10 0`;
}

// The fixtures are written as a little-endian kernel prints them.
const describeOnLittleEndian = endianness() === 'LE' ? describe : describe.skip;

describeOnLittleEndian('listenersIn', () => {
  it('decodes IPv4 addresses and tells loopback from the rest', () => {
    const table = [
      header,
      row('0100007F:1F90', '0A', 1),
      row('00000000:0050', '0A', 2),
      row('0302010A:01BB', '0A', 3),
      row('0100007F:2000', '01', 4), // established, not listening
      row('0100007F:2001', '0A', 99), // another process's socket
    ].join('\n');
    expect(listenersIn(table, new Set(['1', '2', '3', '4']))).toEqual([
      { address: '127.0.0.1', port: 8080, loopback: true },
      { address: '0.0.0.0', port: 80, loopback: false },
      { address: '10.1.2.3', port: 443, loopback: false },
    ]);
  });

  it('decodes IPv6 addresses, including IPv4-mapped ones', () => {
    const table = [
      header,
      row('00000000000000000000000001000000:1F90', '0A', 1),
      row('00000000000000000000000000000000:1F91', '0A', 2),
      row('0000000000000000FFFF00000100007F:1F92', '0A', 3),
      row('B80D0120000000000000000001000000:1F93', '0A', 4),
    ].join('\n');
    expect(listenersIn(table, new Set(['1', '2', '3', '4']))).toEqual([
      { address: '::1', port: 8080, loopback: true },
      { address: '::', port: 8081, loopback: false },
      { address: '::ffff:7f00:1', port: 8082, loopback: true },
      { address: '2001:db8::1', port: 8083, loopback: false },
    ]);
  });
});
