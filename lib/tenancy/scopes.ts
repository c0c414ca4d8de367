/** Scopes an API key can carry. The reserved ones are accepted and inert until endpoints ship. */
export const apiKeyScopes = [
  'iq:import',
  'iq:read',
  'usage:read',
  'articles:read',
  'iq:embed',
  'iq:enrich',
  'iq:diagnostics',
] as const;

export type Scope = (typeof apiKeyScopes)[number];
