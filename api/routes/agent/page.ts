import type { Middleware } from 'koa';
import { agentPageHtml } from '#api/agent-inbox/page-html.js';
import { agentPageScript } from '#api/agent-inbox/page-script.js';
import { agentPageCss } from '#api/agent-inbox/page-style.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import type { ApiState } from '#api/state.js';

/**
 * Nothing but the page's own files may run or load, and it may talk to this origin only: whatever
 * a customer writes cannot turn into script, styles or requests elsewhere.
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // `data:` for the empty favicon only, so the browser does not ask for /favicon.ico.
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The agent inbox page at `/agent`, with its script and styles. The files are public (they hold no
 * data); the page asks for the user token and calls the `/agent/...` routes with it.
 */
export function createAgentPageRouter() {
  const router = new DocumentedRouter<ApiState>({ tags: ['Agent inbox'], security: 'none', errors: [] });
  const serve =
    (type: string, body: string): Middleware =>
    (ctx) => {
      ctx.type = type;
      ctx.set('Content-Security-Policy', contentSecurityPolicy);
      ctx.body = body;
    };

  router.get(
    '/agent',
    {
      summary: 'The agent inbox page',
      description:
        'A page for agents: sign in with the user token (kept in the tab only), see the conversations waiting for a person live, take one over, reply, hand it back or close it.',
      responses: { 200: { description: 'The page', schema: { type: 'string' }, contentType: 'text/html' } },
    },
    serve('text/html; charset=utf-8', agentPageHtml) as never,
  );
  router.get(
    '/agent/app.js',
    {
      summary: "The agent inbox page's script",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', agentPageScript) as never,
  );
  router.get(
    '/agent/app.css',
    {
      summary: "The agent inbox page's styles",
      responses: { 200: { description: 'A style sheet', schema: { type: 'string' }, contentType: 'text/css' } },
    },
    serve('text/css; charset=utf-8', agentPageCss) as never,
  );
  return router;
}
