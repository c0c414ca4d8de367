import type { KnownValues } from './hostile-requests.js';

/**
 * One tenant with every kind of credential, made through the public API with the admin token: what
 * lets hostile requests get past authentication and reach the code behind it.
 */
export async function createKnownValues(apiUrl: string, adminToken: string): Promise<KnownValues> {
  const call = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const response = await fetch(apiUrl + path, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const tenant = await call<{ id: string; defaultKnowledgeBaseId: string }>('POST', '/admin/tenants', { name: 'Fuzz' });
  const key = await call<{ key: string }>('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'fuzz',
    scopes: ['iq:read', 'iq:import', 'articles:read'],
  });
  const operator = await call<{ operatorKey: string }>('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Fuzz' });
  const user = await call<{ token: string }>('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Fuzz Admin',
    email: 'fuzz@example.com',
    role: 'admin',
  });
  const conversation = await call<{ conversationId: string; visitorToken: string }>(
    'POST',
    '/chat/conversations',
    {},
    { authorization: '', 'x-operator-key': operator.operatorKey, origin: 'https://shop.example.com' },
  );
  return {
    adminToken,
    apiKey: key.key,
    operatorKey: operator.operatorKey,
    userToken: user.token,
    visitorToken: conversation.visitorToken,
    tenantId: tenant.id,
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    conversationId: conversation.conversationId,
  };
}
