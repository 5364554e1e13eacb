import { SecretRef } from '@krypton/plugin-krypton-common';
import { SecretSummary } from '@krypton/core';
import { KryptonApi, SecretLocation } from '../../api/KryptonApi';
import { summary } from '../../__testUtils__/krypton';
import { REQUESTS_IN_FLIGHT, loadLinkedSecrets } from './loadLinkedSecrets';

interface Pending {
  location: SecretLocation;
  answer: () => void;
  fail: (reason: Error) => void;
}

/** A client whose summaries answer only when the test says so, so that the pool is observable. */
function heldApi() {
  const pending: Pending[] = [];
  let started = 0;
  const api = {
    getSecretSummary: (location: SecretLocation) => {
      started++;
      return new Promise<SecretSummary>((resolve, reject) => {
        pending.push({
          location,
          answer: () => resolve(summary({ name: location.name })),
          fail: reject,
        });
      });
    },
  } as Partial<KryptonApi> as KryptonApi;
  return { api, pending, started: () => started };
}

/** Lets every settled request's continuation run, so that the pool starts its next request. */
const settle = () => new Promise(resolve => setTimeout(resolve, 0));

const refs = (count: number): SecretRef[] =>
  Array.from({ length: count }, (_, i) => ({
    namespace: 'demo',
    name: `s${i + 1}`,
  }));

describe('loadLinkedSecrets', () => {
  it(`has at most ${REQUESTS_IN_FLIGHT} summaries in flight, and keeps the annotation's order`, async () => {
    const held = heldApi();
    const loading = loadLinkedSecrets(held.api, { refs: refs(10) });

    await settle();
    expect(held.started()).toBe(REQUESTS_IN_FLIGHT);
    // Answered newest first, so that order comes from the pool, not from the answers.
    while (held.pending.length > 0) {
      expect(held.pending.length).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);
      held.pending.pop()!.answer();
      await settle();
    }
    const { rows } = await loading;
    expect(held.started()).toBe(10);
    expect(rows.map(row => row.name)).toEqual(refs(10).map(ref => ref.name));
  });

  it('keeps going after a failed summary, which becomes its problem row', async () => {
    const held = heldApi();
    const loading = loadLinkedSecrets(held.api, { refs: refs(6) });
    await settle();
    held.pending.shift()!.fail(new Error('Secret not found.'));
    await settle();
    while (held.pending.length > 0) {
      held.pending.shift()!.answer();
      await settle();
    }
    const { rows } = await loading;
    expect(rows.map(row => [row.name, row.problem])).toEqual([
      ['s1', 'Secret not found.'],
      ...refs(6)
        .slice(1)
        .map(ref => [ref.name, undefined]),
    ]);
  });
});
