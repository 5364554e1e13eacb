import {
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import {
  Navigator,
  Path,
  To,
  UNSAFE_NavigationContext,
  parsePath,
  useLocation,
} from 'react-router-dom';
import { isSecretTabId } from '../secretLink';
import { trimTrailingSlashes } from '../trimTrailingSlashes';

type Move = Navigator['push'];

/** Where the user is, as far as a guard compares places. */
export interface Place {
  pathname: string;
  search: string;
}

interface Guard {
  /** Whether a navigation to `to` leaves what the guard protects. */
  blocks: (to: To) => boolean;
  /** Holds the navigation until the user answers; `proceed` carries it out. */
  ask: (proceed: () => void) => void;
}

interface Installed {
  push: Move;
  replace: Move;
  guards: Set<Guard>;
}

/** The guards of each router's navigator, and the navigator's own methods to restore. */
const installed = new WeakMap<Navigator, Installed>();

/**
 * Puts a guard in front of the router's push and replace, the two ways in-app navigation moves
 * (links, `navigate()`, the sidebar): react-router's `useBlocker` needs a data router, and the
 * app's router is a plain BrowserRouter. The navigator's methods are put back when its last guard
 * goes.
 */
function install(navigator: Navigator, guard: Guard): () => void {
  let entry = installed.get(navigator);
  if (!entry) {
    const own: Installed = {
      push: navigator.push,
      replace: navigator.replace,
      guards: new Set(),
    };
    const guarded =
      (method: 'push' | 'replace'): Move =>
      (to, ...rest) => {
        const go = () => own[method].call(navigator, to, ...rest);
        const blocking = [...own.guards].find(g => g.blocks(to));
        if (blocking) blocking.ask(go);
        else go();
      };
    navigator.push = guarded('push');
    navigator.replace = guarded('replace');
    installed.set(navigator, own);
    entry = own;
  }
  const current = entry;
  current.guards.add(guard);
  return () => {
    current.guards.delete(guard);
    if (current.guards.size === 0) {
      navigator.push = current.push;
      navigator.replace = current.replace;
      installed.delete(navigator);
    }
  };
}

// The router hands its navigator a resolved path; a bare string is parsed the same way. A path
// without a pathname stays on the current one.
function placeOf(to: To, here: Place): Place {
  const path: Partial<Path> = typeof to === 'string' ? parsePath(to) : to;
  return {
    pathname: path.pathname || here.pathname,
    search: path.search ?? '',
  };
}

/**
 * The Secret's page that an address shows: its path without a tab segment, and its cluster. The
 * tabs of one Secret (`secret/:namespace/:name/:tab`) are one page, whose draft stays mounted
 * across them; another Secret, another cluster or any other page is not. Only a fourth segment
 * after `secret` is a tab, so a Secret named like a tab stays itself.
 */
export function secretPageOf(place: Place): string {
  const segments = trimTrailingSlashes(place.pathname).split('/');
  const last = segments.length - 1;
  if (segments[last - 3] === 'secret' && isSecretTabId(segments[last])) {
    segments.pop();
  }
  const cluster = new URLSearchParams(place.search).get('cluster') ?? '';
  return `${segments.join('/')}?${cluster}`;
}

export interface LeaveGuard {
  /** A navigation waits for the user's answer. */
  asking: boolean;
  /** Stay: the navigation is dropped. */
  stay: () => void;
  /** Leave: the navigation goes on, and nothing more is asked on the way out. */
  leave: () => void;
}

/**
 * While `active`, an in-app navigation that leaves the current Secret's page (see secretPageOf)
 * waits until the user answers; switching the Secret's tabs does not ask.
 *
 * The browser's Back and Forward buttons are not guarded: in a plain BrowserRouter the address
 * has already changed when popstate arrives, and undoing it would fight the router's own history
 * bookkeeping. Closing or reloading the tab is guarded by useBeforeUnload.
 */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const location = useLocation();
  const here = useRef<Place>(location);
  // The page the guard protects is where the user is now, tab switches included.
  useLayoutEffect(() => {
    here.current = location;
  }, [location]);
  const [pending, setPending] = useState<() => void>();
  /** Set once the user chose to leave: the navigation that follows must pass. */
  const released = useRef(false);

  useEffect(() => {
    if (!active) return undefined;
    released.current = false;
    return install(navigator, {
      blocks: to =>
        !released.current &&
        secretPageOf(placeOf(to, here.current)) !== secretPageOf(here.current),
      // A function in state would be called as an updater: it is wrapped.
      ask: proceed => setPending(() => proceed),
    });
  }, [active, navigator]);

  // A draft saved or discarded meanwhile has nothing left to ask about.
  useEffect(() => {
    if (!active) setPending(undefined);
  }, [active]);

  const stay = useCallback(() => setPending(undefined), []);
  const leave = useCallback(() => {
    released.current = true;
    setPending(undefined);
    pending?.();
  }, [pending]);
  return { asking: pending !== undefined, stay, leave };
}
