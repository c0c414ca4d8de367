import Router, { type RouterMiddleware } from '@koa/router';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { DefaultContext, Middleware } from 'koa';
import { formBody } from '../middleware/form-body.js';
import { jsonBody } from '../middleware/json-body.js';
import { validateBody, validateQuery } from '../middleware/validate-body.js';

/**
 * The body limit of a router that sets none: above the largest body any such route accepts as
 * valid (a chat message or agent reply of 4,000 characters, an operator's 100 domains, written
 * with every character escaped as `\uXXXX`, are each under 30 KB).
 */
export const smallBodyLimitBytes = 64 * 1024;

export type Security = 'none' | 'admin' | 'apiKey' | 'userToken' | 'operatorKey';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema of a request part: an object, with its literal type kept (`as const`, `objectOf`). */
export type RequestSchema = Exclude<JSONSchema, boolean>;

/** The schema of a request part a route may leave out. */
type MaybeSchema = RequestSchema | undefined;

/**
 * What a request body that passed its schema is. The body validator fills in no defaults, so a
 * property with a `default` may still be missing.
 */
export type BodyOf<Schema extends RequestSchema> = FromSchema<Schema, { keepDefaultedPropertiesOptional: true }>;

/** What a query that passed its schema is: `validateQuery` fills in the defaults. */
export type QueryOf<Schema extends RequestSchema> = FromSchema<Schema>;

/** The state a route's handlers see besides the router's: the validated query, when the route has one. */
export type QueryState<Query extends MaybeSchema> = Query extends RequestSchema ? { query: QueryOf<Query> } : {};

/** The context a route's handlers see besides Koa's and the router's: the validated body, when the route has one. */
export type BodyContext<Body extends MaybeSchema> = Body extends RequestSchema
  ? DefaultContext & { request: { body: BodyOf<Body> } }
  : DefaultContext;

/**
 * A middleware or handler of one route, in @koa/router's terms: `State` is the router's state with
 * whatever the route's own middleware adds (`T` of the route methods), and the body and query are
 * typed from the schemas that validated them.
 */
export type RouteMiddleware<
  State,
  Body extends MaybeSchema = undefined,
  Query extends MaybeSchema = undefined,
> = RouterMiddleware<State & QueryState<Query>, BodyContext<Body>>;

/** What the OpenAPI document says about one route; the same schema validates the request. */
export interface OperationSpec<Body extends MaybeSchema = MaybeSchema, Query extends MaybeSchema = MaybeSchema> {
  summary: string;
  description?: string;
  /** JSON Schema of the request body, enforced by `validateBody` before the handler runs. */
  body?: Body;
  /**
   * How the body is sent: JSON (the default), a form as a plain HTML form posts it, or `multipart`
   * (`multipart/form-data`, a file upload): documented by `body`, and read by the handler as a
   * stream, never parsed or buffered by the router.
   */
  bodyType?: 'json' | 'form' | 'multipart';
  /** The body may be left out; it is then validated (and handled) as `{}`. */
  bodyOptional?: boolean;
  /** JSON Schema of the query parameters (an object schema), enforced by `validateQuery`. */
  query?: Query;
  /** Request headers the route reads, besides the security scheme's. */
  headers?: Array<{ name: string; required: boolean; description: string }>;
  /** Success responses, by status; JSON unless `contentType` says otherwise. */
  responses: Record<number, { description: string; schema?: object; contentType?: string }>;
  /** Statuses answered with the error body, besides those of the router. */
  errors?: number[];
}

export interface Operation extends OperationSpec {
  method: Method;
  path: string;
  tags: string[];
  security: Security;
  scope?: string;
  errors: number[];
  /** The errors are answered as HTML pages (a router of pages for people), not the error body. */
  errorPages?: boolean;
}

/**
 * A router whose routes describe themselves. Registering a route records its operation, so the
 * OpenAPI document lists exactly the routes that exist, with the schemas that validate them.
 * Paths are written the OpenAPI way (`/tenants/{tenantId}`).
 *
 * The handlers' `ctx.request.body` and `ctx.state.query` are typed from the route's `body` and
 * `query` schemas. As with @koa/router, a route's middleware may add to the router's state (a
 * `Middleware<VisitorState>` on a `ChatState` router): `T`, inferred from them, is what they add.
 */
export class DocumentedRouter<State = object> {
  readonly router = new Router<State>();
  readonly operations: Operation[] = [];

  private readonly parseBody: Middleware;
  private readonly parseForm: Middleware;

  /**
   * `bodyLimitBytes` bounds the JSON bodies of its routes. A body is read only by a route that takes
   * one, after the router's own middleware (authentication, rate limits): an anonymous or refused
   * request never costs a parse.
   */
  constructor(
    private readonly defaults: { tags: string[]; security: Security; scope?: string; errors: number[]; errorPages?: boolean },
    { bodyLimitBytes = smallBodyLimitBytes }: { bodyLimitBytes?: number } = {},
  ) {
    this.parseBody = jsonBody(bodyLimitBytes);
    this.parseForm = formBody(bodyLimitBytes);
  }

  // Each method hands its type arguments on to `add` by name: inferring them again from the
  // handlers' types would send the compiler through `FromSchema` too deep.

  get<const Body extends MaybeSchema = undefined, const Query extends MaybeSchema = undefined, T = {}>(
    path: string,
    spec: OperationSpec<Body, Query>,
    ...handlers: RouteMiddleware<State & T, Body, Query>[]
  ) {
    return this.add<Body, Query, T>('get', path, spec, handlers);
  }
  post<const Body extends MaybeSchema = undefined, const Query extends MaybeSchema = undefined, T = {}>(
    path: string,
    spec: OperationSpec<Body, Query>,
    ...handlers: RouteMiddleware<State & T, Body, Query>[]
  ) {
    return this.add<Body, Query, T>('post', path, spec, handlers);
  }
  put<const Body extends MaybeSchema = undefined, const Query extends MaybeSchema = undefined, T = {}>(
    path: string,
    spec: OperationSpec<Body, Query>,
    ...handlers: RouteMiddleware<State & T, Body, Query>[]
  ) {
    return this.add<Body, Query, T>('put', path, spec, handlers);
  }
  patch<const Body extends MaybeSchema = undefined, const Query extends MaybeSchema = undefined, T = {}>(
    path: string,
    spec: OperationSpec<Body, Query>,
    ...handlers: RouteMiddleware<State & T, Body, Query>[]
  ) {
    return this.add<Body, Query, T>('patch', path, spec, handlers);
  }
  delete<const Body extends MaybeSchema = undefined, const Query extends MaybeSchema = undefined, T = {}>(
    path: string,
    spec: OperationSpec<Body, Query>,
    ...handlers: RouteMiddleware<State & T, Body, Query>[]
  ) {
    return this.add<Body, Query, T>('delete', path, spec, handlers);
  }

  /** Middleware for every route of this router (authentication, rate limits). */
  use<T = {}>(...middleware: RouterMiddleware<State & T>[]) {
    this.router.use<T>(...middleware);
    return this;
  }

  /** The routes, then 405 (with `Allow`) for a known path asked with another method. */
  middleware(): Middleware[] {
    // @koa/router types these as middleware of a context that already has `params` and `router`,
    // which they set themselves; the app mounts routers of different states, so they are handed out
    // as plain Koa middleware.
    return [this.router.routes(), this.router.allowedMethods()] as unknown as Middleware[];
  }

  private add<Body extends MaybeSchema, Query extends MaybeSchema, T>(
    method: Method,
    path: string,
    spec: OperationSpec<Body, Query>,
    handlers: RouteMiddleware<State & T, Body, Query>[],
  ) {
    const errors = [...new Set([...this.defaults.errors, ...requestErrors(spec), ...(spec.errors ?? [])])].sort();
    this.operations.push({ ...spec, ...this.defaults, method, path, errors });
    const koaPath = path.replace(/\{(\w+)\}/g, ':$1');
    const validation: Middleware[] = [
      ...(spec.query ? [validateQuery(spec.query)] : []),
      ...(spec.body && spec.bodyType !== 'multipart'
        ? [
            spec.bodyType === 'form' ? this.parseForm : this.parseBody,
            validateBody(spec.body, { optional: spec.bodyOptional ?? false }),
          ]
        : []),
    ];
    // The validators leave what the handlers' types promise: the typed body, and the query in the state.
    this.router[method]<T & QueryState<Query>, BodyContext<Body>>(koaPath, ...validation, ...handlers);
    return this;
  }
}

/** What the request's own body and query can be refused with: invalid (400); a body too large (413) or of another type (415). */
function requestErrors(spec: OperationSpec): number[] {
  if (spec.body) return [400, 413, 415];
  return spec.query ? [400] : [];
}
