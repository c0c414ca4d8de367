import type { MessagingConnections } from '#messaging/connections.js';
import {
  bodyParametersOf,
  templateLimits,
  TemplateExistsError,
  TemplateLimitError,
  type MessageTemplates,
} from '#messaging/templates.js';
import { conflict, invalidPayload, limitReached, notFound } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy } from '../ownership.js';
import { createTemplateRequest, templateListResponse, templateResponse } from '../schemas/messaging-templates.js';
import type { UserState } from '../state.js';
import type { UserGuard } from '../middleware/token-budgets.js';

export interface MessagingTemplatesRouterDeps {
  requireUser: UserGuard;
  connections: Pick<MessagingConnections, 'get'>;
  templates: MessageTemplates;
}

/**
 * The business's approved message templates, per connection: the platform approves them outside
 * the service, and a tenant admin registers here the ones agents may send once a customer's 24-hour
 * window has closed. Admins only, like the connection itself; another tenant's connection is 403.
 */
export function createMessagingTemplatesRouter({ requireUser, connections, templates }: MessagingTemplatesRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Integrations'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin']));

  const owned = async (tenantId: string, connectionId: string) =>
    ownedBy(await connections.get(connectionId), tenantId, `app connection ${connectionId}`);

  router.post(
    '/integrations/app-connections/{connectionId}/templates',
    {
      summary: 'Register an approved message template',
      description:
        'A template the platform has approved for this number (name, language, category and its body text with `{{1}}`… parameters), which agents may then send, also after the 24-hour window. ' +
        'The service cannot check the approval: a template the platform does not know is refused when sent (error 132001, shown on the message). ' +
        `The same name and language again: 409; at most ${templateLimits.perConnection} per connection (409 \`template_limit_reached\`). Another tenant's connection: 403; unknown: 404. Role admin.`,
      body: createTemplateRequest,
      responses: { 201: { description: 'The template as registered', schema: templateResponse } },
      errors: [404, 409],
    },
    async (ctx) => {
      const connection = await owned(ctx.state.user.tenantId, ctx.params.connectionId!);
      const parameters = bodyParametersOf(ctx.request.body.body);
      if ('problem' in parameters)
        throw invalidPayload(`The body's parameters are not valid: ${parameters.problem}.`, [
          { path: '/body', message: parameters.problem },
        ]);
      try {
        ctx.body = await templates.add(connection.id, ctx.request.body, parameters.count);
        ctx.status = 201;
      } catch (error) {
        if (error instanceof TemplateExistsError) throw conflict(error.message);
        if (error instanceof TemplateLimitError) throw limitReached('template_limit_reached', error.message);
        throw error;
      }
    },
  );

  router.get(
    '/integrations/app-connections/{connectionId}/templates',
    {
      summary: "A connection's registered templates",
      description: "By name, then language. Another tenant's connection: 403; unknown: 404. Role admin.",
      responses: { 200: { description: 'The templates', schema: templateListResponse } },
      errors: [404],
    },
    async (ctx) => {
      const connection = await owned(ctx.state.user.tenantId, ctx.params.connectionId!);
      ctx.body = { templates: await templates.list(connection.id) };
    },
  );

  router.delete(
    '/integrations/app-connections/{connectionId}/templates/{name}/{language}',
    {
      summary: 'Remove a registered template',
      description:
        "Agents no longer see it; messages already sent stay in their transcripts. Unknown template or connection: 404; another tenant's connection: 403. Role admin.",
      responses: { 204: { description: 'Removed' } },
      errors: [404],
    },
    async (ctx) => {
      const { connectionId, name, language } = ctx.params as { connectionId: string; name: string; language: string };
      const connection = await owned(ctx.state.user.tenantId, connectionId);
      if (!(await templates.remove(connection.id, name, language))) {
        throw notFound(`No template ${name} (${language}) is registered on this connection.`);
      }
      ctx.status = 204;
    },
  );

  return router;
}
