/**
 * A fixed set of interchangeable fixtures (a fault proxy with the backends behind it, say) that
 * concurrent tests take turns on. A test holds one fixture for its whole run, so no two tests
 * ever see each other's rules, recordings or log lines; a test that finds none free waits for
 * the next one released.
 */
export class FixturePool<T> {
  private readonly free: T[];
  private readonly waiting: Array<(fixture: T) => void> = [];

  constructor(fixtures: T[]) {
    this.free = [...fixtures];
  }

  async use<R>(run: (fixture: T) => Promise<R>): Promise<R> {
    const fixture =
      this.free.pop() ??
      (await new Promise<T>(resolve => this.waiting.push(resolve)));
    try {
      return await run(fixture);
    } finally {
      const next = this.waiting.shift();
      if (next) next(fixture);
      else this.free.push(fixture);
    }
  }
}
