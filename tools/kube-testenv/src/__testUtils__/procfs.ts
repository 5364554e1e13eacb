import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { endianness } from 'node:os';

/** A process as /proc/<pid>/stat describes it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  name: string;
}

/** A TCP socket in the LISTEN state. */
export interface Listener {
  address: string;
  port: number;
  loopback: boolean;
}

function readProcess(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited while we looked
  }
  // The name is parenthesised and may itself hold spaces or parentheses.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  const [, ppid] = stat
    .slice(close + 2)
    .split(' ')
    .slice(0, 2);
  return { pid, ppid: Number(ppid), name: stat.slice(open + 1, close) };
}

/**
 * Every process below root, at any depth. Scans /proc rather than reading
 * /proc/<pid>/task/<tid>/children, which kernels without CONFIG_PROC_CHILDREN lack.
 */
export function descendantsOf(root: number): ProcessInfo[] {
  const all = readdirSync('/proc')
    .filter(entry => /^\d+$/.test(entry))
    .map(entry => readProcess(Number(entry)))
    .filter((p): p is ProcessInfo => p !== undefined);
  const found: ProcessInfo[] = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let link: string;
    try {
      link = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed while we looked
    }
    const match = /^socket:\[(\d+)\]$/.exec(link);
    if (match) inodes.add(match[1]);
  }
  return inodes;
}

/**
 * The kernel prints each 32-bit word of an address in host byte order, so on a little-endian
 * host every group of four bytes comes out reversed.
 */
function addressBytes(hex: string): Buffer {
  const bytes = Buffer.from(hex, 'hex');
  if (endianness() === 'LE') {
    for (let i = 0; i < bytes.length; i += 4) {
      bytes.subarray(i, i + 4).reverse();
    }
  }
  return bytes;
}

function isLoopback(bytes: Buffer): boolean {
  if (bytes.length === 4) return bytes[0] === 127;
  const zeros = (from: number, to: number) =>
    bytes.subarray(from, to).every(b => b === 0);
  const ipv6Loopback = zeros(0, 15) && bytes[15] === 1;
  const mappedIpv4Loopback =
    zeros(0, 10) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff &&
    bytes[12] === 127;
  return ipv6Loopback || mappedIpv4Loopback;
}

function formatAddress(bytes: Buffer): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2)
    groups.push(bytes.readUInt16BE(i).toString(16));
  // The URL parser writes IPv6 addresses in their canonical, compressed form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/**
 * The rows of a /proc/net/tcp or /proc/net/tcp6 table that are in the LISTEN state and belong to
 * one of the given socket inodes.
 */
export function listenersIn(table: string, inodes: Set<string>): Listener[] {
  const listeners: Listener[] = [];
  for (const row of table.trim().split('\n').slice(1)) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
    const fields = row.trim().split(/\s+/);
    const [local, state, inode] = [fields[1], fields[3], fields[9]];
    if (state !== '0A' || !inodes.has(inode)) continue;
    const [hex, port] = local.split(':');
    const bytes = addressBytes(hex);
    listeners.push({
      address: formatAddress(bytes),
      port: parseInt(port, 16),
      loopback: isLoopback(bytes),
    });
  }
  return listeners;
}

/** The TCP sockets that the process holds open in the LISTEN state, IPv4 and IPv6. */
export function listenersOf(pid: number): Listener[] {
  const inodes = socketInodes(pid);
  // The process's own view, in case it runs in another network namespace than this one.
  return ['tcp', 'tcp6'].flatMap(table =>
    listenersIn(readFileSync(`/proc/${pid}/net/${table}`, 'utf8'), inodes),
  );
}
