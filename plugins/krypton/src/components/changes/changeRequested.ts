import { ChangeRequest } from '@krypton/core';
import { createContext, useContext } from 'react';
import { ChangeRequestedError } from '../../api/KryptonClient';

/** Told of a write that the backend turned into a change request. */
export type OnChangeRequested = (request: ChangeRequest) => void;

const ChangeRequestedContext = createContext<OnChangeRequested | undefined>(
  undefined,
);

/** The Secret's page provides it: it ends the form or dialog and points at the Changes tab. */
export const ChangeRequestedProvider = ChangeRequestedContext.Provider;

/**
 * Where a write that became a change request goes. Undefined outside a Secret's page: the write's
 * own failure display then shows the request's message, which is as true (nothing was written).
 */
export function useChangeRequested(): OnChangeRequested | undefined {
  return useContext(ChangeRequestedContext);
}

/** The change request that a write became, when it became one. */
export function requestOf(e: unknown): ChangeRequest | undefined {
  return e instanceof ChangeRequestedError ? e.changeRequest : undefined;
}
