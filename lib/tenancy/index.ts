import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { createApiKeyRecords } from './api-keys.js';
import { createOperatorRecords, type OperatorKeySettings } from './operators.js';
import { tenancyKeys } from './redis-keys.js';
import { createTeamRecords } from './teams.js';
import { createTenantRecords } from './tenants.js';
import { createUserRecords, type UserTokenSettings } from './users.js';

export type { ApiKey, NewApiKey } from './api-keys.js';
export type { Operator, OperatorChanges } from './operators.js';
export type { Tenant, KnowledgeBase } from './tenants.js';
export { EmailTakenError, userRoles, type User, type UserRole } from './users.js';
export { apiKeyScopes, type Scope } from './scopes.js';
export {
  TeamLimitError,
  defaultTeamAssignment,
  maxTeams,
  type Routing,
  type RoutingRule,
  type SlaPolicy,
  type Team,
  type TeamAssignment,
  type TeamInput,
} from './teams.js';
export type { OfficeHours, OpenInterval, Weekday } from './office-hours.js';

export type CredentialSettings = UserTokenSettings & OperatorKeySettings;

/** The defaults of `USER_TOKEN_LIFETIME_DAYS` and `OPERATOR_KEY_GRACE_HOURS`. */
export const defaultCredentialSettings: CredentialSettings = {
  userTokenLifetimeMs: 90 * 24 * 3600 * 1000,
  operatorKeyGraceMs: 24 * 3600 * 1000,
};

export interface TenancyOptions {
  now?: () => Date;
  credentials?: CredentialSettings;
}

/**
 * Tenants, knowledge bases, API keys, operators, users and teams, kept in Redis under `prefix`. When Redis
 * cannot be reached, every function fails with a DependencyUnavailableError naming it.
 */
export function createTenancy(
  redis: RedisClient,
  prefix: string,
  { now = () => new Date(), credentials = defaultCredentialSettings }: TenancyOptions = {},
) {
  const storage = { redis, keys: tenancyKeys(prefix), now };
  return tagUnavailable('redis', {
    ...createTenantRecords(storage),
    ...createApiKeyRecords(storage),
    ...createOperatorRecords(storage, credentials),
    ...createUserRecords(storage, credentials),
    ...createTeamRecords(storage),
  });
}

export type Tenancy = ReturnType<typeof createTenancy>;
