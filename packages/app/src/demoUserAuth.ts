import {
  BackstageIdentityApi,
  BackstageIdentityResponse,
  DiscoveryApi,
  ProfileInfo,
  ProfileInfoApi,
  SessionApi,
  SessionState,
  createApiRef,
} from '@backstage/core-plugin-api';

type SessionStates = ReturnType<SessionApi['sessionState$']>;
type Subscription = ReturnType<SessionStates['subscribe']>;
type StateObserver = {
  next?: (state: SessionState) => void;
};

/** What a proxy provider's refresh answers (`GET /api/auth/<provider>/refresh`). */
interface ProxiedSession {
  profile: ProfileInfo;
  backstageIdentity: {
    token: string;
    expiresInSeconds?: number;
    identity: BackstageIdentityResponse['identity'];
  };
}

/** Refresh a minute before the token expires; an answer without an expiry lasts 5 minutes. */
const MARGIN_MS = 60_000;
const DEFAULT_LIFETIME_MS = 5 * 60_000;

/** Tells a subscriber the session's state at the moment it subscribes; the state never moves. */
class SessionStateNow {
  constructor(private readonly state: () => SessionState) {}

  [Symbol.observable](): SessionStates {
    return this;
  }

  subscribe(observer: StateObserver): Subscription;
  subscribe(onNext?: (state: SessionState) => void): Subscription;
  subscribe(
    first?: StateObserver | ((state: SessionState) => void),
  ): Subscription {
    const next = typeof first === 'function' ? first : first?.next;
    next?.(this.state());
    return { unsubscribe: () => undefined, closed: true };
  }
}

/**
 * Signs in as one demo user through a proxy auth provider of the example backend (the way the
 * guest provider works, with another catalog user): the sign-in page offers it beside Guest, so
 * that a second person can approve what the first one requests.
 */
export class DemoUserAuth
  implements ProfileInfoApi, BackstageIdentityApi, SessionApi
{
  private session?: { value: ProxiedSession; until: number };

  constructor(
    private readonly discovery: DiscoveryApi,
    private readonly provider: string,
  ) {}

  private async current(): Promise<ProxiedSession> {
    if (this.session && Date.now() < this.session.until)
      return this.session.value;
    const base = await this.discovery.getBaseUrl('auth');
    const res = await fetch(`${base}/${this.provider}/refresh`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      credentials: 'include',
    });
    if (!res.ok)
      throw new Error(`The ${this.provider} sign-in answered ${res.status}`);
    const value = (await res.json()) as ProxiedSession;
    const lifetime =
      (value.backstageIdentity.expiresInSeconds ?? 0) * 1000 ||
      DEFAULT_LIFETIME_MS;
    this.session = { value, until: Date.now() + lifetime - MARGIN_MS };
    return value;
  }

  async getBackstageIdentity(): Promise<BackstageIdentityResponse> {
    const { backstageIdentity } = await this.current();
    return {
      token: backstageIdentity.token,
      identity: backstageIdentity.identity,
    };
  }

  async getProfile(): Promise<ProfileInfo> {
    return (await this.current()).profile;
  }

  async signIn(): Promise<void> {
    await this.current();
  }

  async signOut(): Promise<void> {
    this.session = undefined;
  }

  sessionState$(): SessionStates {
    return new SessionStateNow(() =>
      this.session ? SessionState.SignedIn : SessionState.SignedOut,
    );
  }
}

/** The example portal's second demo user, `user:default/reviewer` (see app-config.yaml). */
export const reviewerAuthApiRef = createApiRef<
  ProfileInfoApi & BackstageIdentityApi & SessionApi
>({ id: 'app.auth.reviewer' });
