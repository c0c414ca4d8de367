import { AdminApiError, type ApiClient } from '#cli/admin-client.js';

/** The demo tenant's agent: a user with the agent role, who signs in to the agent inbox (`/agent`) with its token. */
export interface DemoAgent {
  agentUserId: string;
  agentToken: string;
}

export const demoAgentUser = { name: 'Demo agent', email: 'agent@demo.example', role: 'agent' } as const;

export interface DemoAgentApi {
  admin: ApiClient;
  /** The API as the holder of a user token sees it. */
  asUser(token: string): ApiClient;
}

/**
 * The saved agent when its token still opens the agent routes; otherwise the agent made again
 * through the admin API: created, or (its e-mail taken: the token was lost, rotated or has expired)
 * given a new token, and reactivated when someone deactivated it, since `npm start` prints the token
 * as one that works.
 */
export async function ensureDemoAgent(api: DemoAgentApi, tenantId: string, saved?: Partial<DemoAgent>): Promise<DemoAgent> {
  if (saved?.agentUserId && saved.agentToken && (await tokenWorks(api.asUser(saved.agentToken)))) {
    return { agentUserId: saved.agentUserId, agentToken: saved.agentToken };
  }
  const users = `/admin/tenants/${tenantId}/users`;
  try {
    const created = await api.admin.request<{ id: string; token: string }>('POST', users, demoAgentUser);
    return { agentUserId: created.id, agentToken: created.token };
  } catch (error) {
    if (!(error instanceof AdminApiError && error.status === 409)) throw error;
  }
  const { users: list } = await api.admin.request<{ users: Array<{ id: string; email: string; active: boolean }> }>('GET', users);
  const existing = list.find((user) => user.email === demoAgentUser.email);
  if (!existing)
    throw new Error(`The demo agent's e-mail ${demoAgentUser.email} is taken, yet no user of tenant ${tenantId} has it.`);
  if (!existing.active) await api.admin.request('PATCH', `${users}/${existing.id}`, { active: true });
  const rotated = await api.admin.request<{ id: string; token: string }>('POST', `${users}/${existing.id}/token`);
  return { agentUserId: rotated.id, agentToken: rotated.token };
}

/** The token opens the agent inbox's list; refused (401, or 403 once expired) it does not. */
async function tokenWorks(agent: ApiClient): Promise<boolean> {
  try {
    await agent.request('GET', '/agent/conversations?limit=1');
    return true;
  } catch (error) {
    if (error instanceof AdminApiError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}
