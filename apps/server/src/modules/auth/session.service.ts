import {
  DEVICE_GROUP_NAMES,
  landingPathFor,
  menuListFor,
  type DeviceGroup,
  type ProviderOption,
  type ProviderRole,
  type Role,
  type SessionInfo,
} from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { AuthOutcome, Authenticator } from '../../http/register-calls.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { ScopeCache } from './scope-cache.ts';
import { hashToken, type SessionStore } from './session.store.ts';

/** Touching last-seen on every request would write on every call; once a minute is enough for idle expiry. */
const TOUCH_EVERY_MS = 60_000;

export class SessionService implements Authenticator {
  /** The login answer's voiceFlag for a provider; the alarms module sets it (built after auth). */
  voiceFlagOf: (providerId: number | null) => Promise<boolean> = () => Promise.resolve(true);
  /** The device groups a caller works with; the devices module sets it (built after auth). */
  deviceGroupsOf: (caller: Caller) => Promise<DeviceGroup[]> = () => Promise.resolve([]);

  constructor(
    private readonly store: SessionStore,
    private readonly clock: Clock,
    private readonly idleMs: number,
    private readonly accounts: AccountService,
    private readonly providers: ProviderService,
    /** The platform's overseas edition (VIGIL_ABROAD, decision 0033). */
    private readonly abroad: boolean,
    private readonly scopes: ScopeCache = new ScopeCache(),
  ) {
    providers.onTreeChanged(() => scopes.clear());
  }

  async authenticate(token: string): Promise<AuthOutcome> {
    if (token.length > 128) return { kind: 'missing' };
    return this.resolve(await this.store.repo.findByTokenHash(this.store.db, hashToken(token)));
  }

  /**
   * The caller behind a live socket's key (the login answer's `key`): the same checks as a
   * request's token — revoked, idle, disabled account or provider — so a socket is refused, or
   * closed on its next check, exactly when the session's calls would be.
   */
  async authenticateSocketKey(key: string): Promise<AuthOutcome> {
    if (!key || key.length > 128) return { kind: 'missing' };
    return this.resolve(await this.store.repo.findBySocketKey(this.store.db, key));
  }

  private async resolve(found: Awaited<ReturnType<SessionStore['repo']['findByTokenHash']>>): Promise<AuthOutcome> {
    if (!found || found.session.revokedAt) return { kind: 'missing' };
    const { session, account, provider, parentEnabled } = found;
    const now = this.clock.now();
    if (now.getTime() - session.lastSeenAt.getTime() > this.idleMs) return { kind: 'expired' };
    const providerActive =
      account.providerId === null ||
      (provider !== null && provider.enabled && provider.deletedAt === null && parentEnabled !== false);
    if (!account.enabled || account.deletedAt || !providerActive) return { kind: 'invalid' };
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await this.store.repo.touch(this.store.db, session.id, now);
    }
    const role = account.role as Role;
    // A data-permission change ends the account's sessions, so a session's scope changes only with the provider tree.
    const scope = await this.scopes.get(`${session.id}:${account.providerId}:${account.permissionType}`, async () =>
      this.providers.scopeFor({
        role,
        providerId: account.providerId,
        permissionType: account.permissionType,
        permittedProviderIds: account.permissionType === 1 ? await this.accounts.permittedProviderIds(account.id) : [],
      }),
    );
    const providerClass = provider ? (provider.providerClass === 1 ? 1 : 2) : null;
    const caller: Caller = {
      sessionId: session.id,
      accountId: account.id,
      userName: account.userName,
      displayName: account.displayName,
      role,
      providerId: account.providerId,
      providerClass,
      providerRole: providerRoleOf(providerClass),
      permissionType: account.permissionType,
      scope,
      currentProviderId: session.currentProviderId,
      socketKey: session.socketKey,
      mustChangePassword: account.mustChangePassword,
    };
    return { kind: 'ok', caller };
  }

  /** What the console keeps after login: role, menus, landing page, providers to choose from. */
  async infoFor(caller: Caller, mustChangePassword: boolean): Promise<SessionInfo> {
    const own = caller.providerId === null ? undefined : await this.providers.findById(caller.providerId);
    const providerList = await this.providers.optionsFor(caller);
    const hasAvailable = providerList.some((p) => p.available);
    const currentProvider = await this.settleCurrentProvider(caller, own, providerList);
    // Which device screens the console shows is the server's decision, never a flag set in the browser.
    const deviceGroups = this.abroad ? [...DEVICE_GROUP_NAMES] : await this.deviceGroupsOf(caller);
    return {
      key: caller.socketKey,
      permissionType: caller.permissionType,
      voiceFlag: await this.voiceFlagOf(currentProvider?.id ?? own?.id ?? null),
      role: caller.role,
      providerRole: caller.providerRole,
      uploadDataFlag: false,
      menuList: menuListFor(caller.role, deviceGroups),
      landingPath: landingPathFor(caller.role, hasAvailable),
      userId: caller.accountId,
      userName: caller.userName,
      name: caller.displayName,
      domain: own?.domain ?? null,
      providerId: own?.id ?? null,
      providerName: own?.name ?? null,
      providerList,
      currentProvider,
      mustChangePassword,
      abroad: this.abroad,
      deviceGroups,
    };
  }

  /**
   * The provider this session reads and writes, decided here so every client gets it from the API:
   * a class 1 account works in one of its class 2 providers (the chosen one while it is available,
   * else the first available, e.g. right after its first one was created); other provider accounts
   * in their own; platform accounts in the one they chose, or their whole scope.
   */
  private async settleCurrentProvider(
    caller: Caller,
    own: { id: number; name: string; domain: string; enabled: boolean } | undefined,
    options: ProviderOption[],
  ): Promise<ProviderOption | null> {
    const available = options.filter((p) => p.available);
    const chosen = available.find((p) => p.id === caller.currentProviderId);
    if (chosen) return chosen;
    if (caller.providerClass === 1) {
      const first = available[0];
      if (first) {
        await this.store.repo.setCurrentProvider(this.store.db, caller.sessionId, first.id);
        caller.currentProviderId = first.id;
        return first;
      }
    }
    if (caller.currentProviderId === null || !canSeeProvider(caller.scope, caller.currentProviderId)) return null;
    const row = own?.id === caller.currentProviderId ? own : await this.providers.findById(caller.currentProviderId);
    return row ? { id: row.id, name: row.name, domain: row.domain, available: row.enabled } : null;
  }
}

export const providerRoleOf = (providerClass: 1 | 2 | null): ProviderRole | null =>
  providerClass === 1 ? 'ONE_ROLE' : providerClass === 2 ? 'TWO_ROLE' : null;
