/** The eleven role codes (spec document 1, section 6). */
export const ROLES = [
  'SENIOR_ROLE',
  'SUB_ROLE',
  'SUPER_ROLE',
  'ONE_ROLE',
  'TWO_ROLE',
  'MAINTAIN',
  'GOVERNMENT',
  'BUSINESS_ROLE',
  'SOCIAL_WORKER',
  'RELATIVES',
  'CARER',
] as const;
export type Role = (typeof ROLES)[number];

/** Platform-level roles: not bound to one provider, see every provider. */
export const PLATFORM_ROLES: readonly Role[] = ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE'];
/** Roles that own a provider (the provider's login account). */
export const PROVIDER_ROLES = ['ONE_ROLE', 'TWO_ROLE'] as const;
export type ProviderRole = (typeof PROVIDER_ROLES)[number];

export const isPlatformRole = (role: Role): boolean => PLATFORM_ROLES.includes(role);

/** Channels a client logs in from. */
export const LOGIN_FROM = ['PC', 'APP', 'MINI'] as const;
export type LoginFrom = (typeof LOGIN_FROM)[number];

/** Who may sign in from which channel. Installers never use the web console. */
export const ROLES_BY_CHANNEL: Record<LoginFrom, readonly Role[]> = {
  PC: [
    'SENIOR_ROLE',
    'SUB_ROLE',
    'SUPER_ROLE',
    'ONE_ROLE',
    'TWO_ROLE',
    'GOVERNMENT',
    'BUSINESS_ROLE',
    'SOCIAL_WORKER',
    'CARER',
  ],
  APP: ['CARER', 'MAINTAIN'],
  MINI: ['RELATIVES'],
};

/**
 * Which roles an account of a given role may create (account management).
 * Provider login accounts (ONE_ROLE, TWO_ROLE) are made through provider management only.
 */
export const CREATABLE_ROLES: Partial<Record<Role, readonly Role[]>> = {
  SUPER_ROLE: ['SENIOR_ROLE', 'BUSINESS_ROLE', 'GOVERNMENT', 'SUB_ROLE'],
  SENIOR_ROLE: ['BUSINESS_ROLE', 'GOVERNMENT', 'SUB_ROLE'],
  BUSINESS_ROLE: ['GOVERNMENT', 'SUB_ROLE'],
  ONE_ROLE: ['SUB_ROLE', 'MAINTAIN', 'SOCIAL_WORKER', 'GOVERNMENT'],
  TWO_ROLE: ['SUB_ROLE', 'MAINTAIN', 'SOCIAL_WORKER'],
};
