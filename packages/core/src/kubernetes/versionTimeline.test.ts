import { staleSince, versionAtStart, versionTimeline } from './versionTimeline';

const at = (iso: string) => `2026-12-01T${iso}Z`;

/** Created at 10:00; version 1 replaced at 11:00, 2 at 12:00, 3 at 13:00; live is 4. */
const full = versionTimeline({
  live: 4,
  creationTimestamp: at('10:00:00'),
  records: [
    { version: 3, snapshotAt: at('13:00:00.000') },
    { version: 1, snapshotAt: at('11:00:00.000') },
    { version: 2, snapshotAt: at('12:00:00.000') },
  ],
});

describe('versionAtStart', () => {
  it('gives the version that was live when the container started', () => {
    expect(versionAtStart(full, at('10:30:00'))).toEqual({
      state: 'version',
      version: 1,
    });
    expect(versionAtStart(full, at('12:30:00'))).toEqual({
      state: 'version',
      version: 3,
    });
    expect(versionAtStart(full, at('13:00:10'))).toEqual({
      state: 'version',
      version: 4,
    });
  });

  it('gives both sides to a start within seconds of a change, never a guess', () => {
    // Reported to the second: 13:00:00 may have been 13:00:00.9, and the change reaches the
    // kubelet a little after its snapshot.
    expect(versionAtStart(full, at('13:00:00'))).toEqual({
      state: 'between',
      from: 3,
      to: 4,
    });
    expect(versionAtStart(full, at('13:00:02'))).toEqual({
      state: 'between',
      from: 3,
      to: 4,
    });
    expect(versionAtStart(full, at('13:00:03'))).toEqual({
      state: 'version',
      version: 4,
    });
    // A start reported as 12:59:59 came before 13:00:00, and the environment is read before it.
    expect(versionAtStart(full, at('12:59:59'))).toEqual({
      state: 'version',
      version: 3,
    });
  });

  it('says "older than" where pruned history cannot tell', () => {
    // Versions 1 and 2 pruned: version 3's start is unknown.
    const pruned = versionTimeline({
      live: 4,
      creationTimestamp: at('10:00:00'),
      records: [{ version: 3, snapshotAt: at('13:00:00') }],
    });
    expect(versionAtStart(pruned, at('10:30:00'))).toEqual({
      state: 'olderThan',
      version: 4,
    });
    expect(versionAtStart(pruned, at('13:00:05'))).toEqual({
      state: 'version',
      version: 4,
    });
    expect(staleSince(pruned, { state: 'olderThan', version: 4 })).toBe(
      Date.parse(at('13:00:00')),
    );
  });

  it('cannot tell anything of a live version with no history and no known start', () => {
    const bare = versionTimeline({ live: 5, records: [] });
    expect(versionAtStart(bare, at('10:30:00'))).toEqual({ state: 'unknown' });
  });

  it('counts version 1 from the creation of the Secret', () => {
    const fresh = versionTimeline({
      live: 1,
      creationTimestamp: at('10:00:00'),
      records: [],
    });
    expect(versionAtStart(fresh, at('10:00:30'))).toEqual({
      state: 'version',
      version: 1,
    });
    // Started before the Secret existed: the clocks disagree, so nothing is claimed.
    expect(versionAtStart(fresh, at('09:00:00'))).toEqual({ state: 'unknown' });
  });

  it('trusts no record that breaks the order of time', () => {
    const broken = versionTimeline({
      live: 4,
      creationTimestamp: at('10:00:00'),
      records: [
        { version: 1, snapshotAt: at('14:00:00') },
        { version: 2, snapshotAt: at('12:00:00') },
        { version: 3, snapshotAt: at('13:00:00') },
      ],
    });
    expect(broken.oldest).toBe(2);
    expect(versionAtStart(broken, at('10:30:00'))).toEqual({
      state: 'olderThan',
      version: 3,
    });
  });

  it('claims nothing while the live counter is unreadable', () => {
    const unreadable = versionTimeline({
      live: null,
      creationTimestamp: at('10:00:00'),
      records: [{ version: 1, snapshotAt: at('11:00:00') }],
    });
    expect(versionAtStart(unreadable, at('12:00:00'))).toEqual({
      state: 'unknown',
    });
    expect(versionAtStart(full, 'not a time')).toEqual({ state: 'unknown' });
  });
});

describe('staleSince', () => {
  it('is when the version held was replaced, and nothing for the live one', () => {
    expect(staleSince(full, { state: 'version', version: 2 })).toBe(
      Date.parse(at('12:00:00')),
    );
    expect(staleSince(full, { state: 'version', version: 4 })).toBeUndefined();
    expect(
      staleSince(full, { state: 'between', from: 3, to: 4 }),
    ).toBeUndefined();
    expect(staleSince(full, { state: 'between', from: 2, to: 3 })).toBe(
      Date.parse(at('13:00:00')),
    );
  });
});
