import { readFile } from 'node:fs/promises';
import type { RouterMiddleware } from '@koa/router';
import { transform } from 'esbuild';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import { madeOnce } from '#platform/made-once.js';
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

// api/agent-page: from api/routes/agent under tsx, from dist/api/routes/agent once built (the build copies it).
const pageDir = new URL('../../agent-page/', import.meta.url);

const readPageFile = (name: string) => readFile(new URL(name, pageDir), 'utf8');

/**
 * The scripts are TypeScript, type-checked with the page's own tsconfig; esbuild only strips the
 * types (no bundling: `app.ts` imports only its siblings `insights.ts`, `notes.ts`, `search.ts`, `canned-replies.ts` and, for admins,
 * `sources.ts`, which the browser fetches as `/agent/insights.js` and `/agent/sources.js`; `sources.ts`
 * imports its sibling `source-files.ts`, fetched as `/agent/source-files.js`; `assignment.ts` and app.ts
 * import `sla.ts`; the Teams view `teams.ts`, fetched when first opened, imports `team-form.ts` and
 * `team-routing.ts`). ES2022
 * like that tsconfig: the page is for current browsers, it already relies on `crypto.randomUUID`
 * and `TextDecoderStream`.
 */
async function transpileScript(name: string): Promise<string> {
  const { code } = await transform(await readPageFile(name), {
    loader: 'ts',
    format: 'esm',
    target: 'es2022',
    sourcefile: name,
  });
  return code;
}

// Read (and transpiled) at the first request, then served from memory: the files change only with a deploy.
const pageHtml = madeOnce(() => readPageFile('index.html'));
const pageScript = madeOnce(() => transpileScript('app.ts'));
const insightsScript = madeOnce(() => transpileScript('insights.ts'));
const sourcesScript = madeOnce(() => transpileScript('sources.ts'));
const sourceFilesScript = madeOnce(() => transpileScript('source-files.ts'));
const searchScript = madeOnce(() => transpileScript('search.ts'));
const notesScript = madeOnce(() => transpileScript('notes.ts'));
const cannedRepliesScript = madeOnce(() => transpileScript('canned-replies.ts'));
const assignmentScript = madeOnce(() => transpileScript('assignment.ts'));
const slaScript = madeOnce(() => transpileScript('sla.ts'));
const teamsScript = madeOnce(() => transpileScript('teams.ts'));
const teamFormScript = madeOnce(() => transpileScript('team-form.ts'));
const teamRoutingScript = madeOnce(() => transpileScript('team-routing.ts'));
const pageCss = madeOnce(() => readPageFile('app.css'));

/**
 * The agent inbox page at `/agent`, with its script and styles: the files of api/agent-page. They
 * are public (they hold no data); the page asks for the user token and calls the `/agent/...`
 * routes with it.
 */
export function createAgentPageRouter() {
  const router = new DocumentedRouter<ApiState>({ tags: ['Agent inbox'], security: 'none', errors: [] });
  const serve =
    (type: string, body: () => Promise<string>): RouterMiddleware<ApiState> =>
    async (ctx) => {
      const text = await body();
      ctx.type = type;
      ctx.set('Content-Security-Policy', contentSecurityPolicy);
      ctx.body = text;
    };

  router.get(
    '/agent',
    {
      summary: 'The agent inbox page',
      description:
        'A page for agents: sign in with the user token (kept in the tab only), see the conversations waiting for a person live, take one over, reply, hand it back or close it.',
      responses: { 200: { description: 'The page', schema: { type: 'string' }, contentType: 'text/html' } },
    },
    serve('text/html; charset=utf-8', pageHtml),
  );
  router.get(
    '/agent/app.js',
    {
      summary: "The agent inbox page's script",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', pageScript),
  );
  router.get(
    '/agent/insights.js',
    {
      summary: "The agent inbox page's Insights view",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', insightsScript),
  );
  router.get(
    '/agent/sources.js',
    {
      summary: "The agent inbox page's Sources view",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', sourcesScript),
  );
  router.get(
    '/agent/source-files.js',
    {
      summary: "The agent inbox page's files sources, in its Sources view",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', sourceFilesScript),
  );
  router.get(
    '/agent/search.js',
    {
      summary: "The agent inbox page's conversation search, at the head of its list",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', searchScript),
  );
  router.get(
    '/agent/notes.js',
    {
      summary: "The agent inbox page's private notes and notifications",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', notesScript),
  );
  router.get(
    '/agent/canned-replies.js',
    {
      summary: "The agent inbox page's canned replies: shortcuts in the reply box, and their panel",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', cannedRepliesScript),
  );
  router.get(
    '/agent/assignment.js',
    {
      summary: "The agent inbox page's teams and assignment: the list's filters, availability, the Assign control",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', assignmentScript),
  );
  router.get(
    '/agent/sla.js',
    {
      summary: "The agent inbox page's service-level badges: time left, or breached",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', slaScript),
  );
  router.get(
    '/agent/teams.js',
    {
      summary: "The agent inbox page's Teams view: teams, routing and the service-level report",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', teamsScript),
  );
  router.get(
    '/agent/team-form.js',
    {
      summary: "The agent inbox page's team form, in its Teams view",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', teamFormScript),
  );
  router.get(
    '/agent/team-routing.js',
    {
      summary: "The agent inbox page's routing of handoffs to teams, in its Teams view",
      responses: { 200: { description: 'An ES module', schema: { type: 'string' }, contentType: 'text/javascript' } },
    },
    serve('text/javascript; charset=utf-8', teamRoutingScript),
  );
  router.get(
    '/agent/app.css',
    {
      summary: "The agent inbox page's styles",
      responses: { 200: { description: 'A style sheet', schema: { type: 'string' }, contentType: 'text/css' } },
    },
    serve('text/css; charset=utf-8', pageCss),
  );
  return router;
}
