import Router, { type RouterMiddleware } from '@koa/router';
import type { Middleware } from 'koa';
import { validateBody, validateQuery } from '../middleware/validate-body.js';

export type Security = 'none' | 'admin' | 'apiKey' | 'userToken' | 'operatorKey';
type Method = 'get' | 'post' | 'patch' | 'delete';

/** What the OpenAPI document says about one route; the same schema validates the request. */
export interface OperationSpec {
  summary: string;
  description?: string;
  /** JSON Schema of the request body, enforced by `validateBody` before the handler runs. */
  body?: object;
  /** The body may be left out; it is then validated (and handled) as `{}`. */
  bodyOptional?: boolean;
  /** JSON Schema of the query parameters (an object schema), enforced by `validateQuery`. */
  query?: object;
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
}

/**
 * A router whose routes describe themselves. Registering a route records its operation, so the
 * OpenAPI document lists exactly the routes that exist, with the schemas that validate them.
 * Paths are written the OpenAPI way (`/tenants/{tenantId}`).
 */
export class DocumentedRouter<State = object> {
  readonly router = new Router<State>();
  readonly operations: Operation[] = [];

  constructor(private readonly defaults: { tags: string[]; security: Security; scope?: string; errors: number[] }) {}

  get(path: string, spec: OperationSpec, ...handlers: RouterMiddleware<State>[]) {
    return this.add('get', path, spec, handlers);
  }
  post(path: string, spec: OperationSpec, ...handlers: RouterMiddleware<State>[]) {
    return this.add('post', path, spec, handlers);
  }
  patch(path: string, spec: OperationSpec, ...handlers: RouterMiddleware<State>[]) {
    return this.add('patch', path, spec, handlers);
  }
  delete(path: string, spec: OperationSpec, ...handlers: RouterMiddleware<State>[]) {
    return this.add('delete', path, spec, handlers);
  }

  /** Middleware for every route of this router (authentication, rate limits). */
  use(...middleware: RouterMiddleware<State>[]) {
    // @koa/router's overloads widen State to `State & {}`, which TypeScript will not unify here.
    this.router.use(...(middleware as never[]));
    return this;
  }

  /** The routes, then 405 (with `Allow`) for a known path asked with another method. */
  middleware(): Middleware[] {
    return [this.router.routes(), this.router.allowedMethods()] as unknown as Middleware[];
  }

  private add(method: Method, path: string, spec: OperationSpec, handlers: RouterMiddleware<State>[]) {
    const errors = [
      ...new Set([...this.defaults.errors, ...requestErrors(spec), ...(spec.errors ?? [])]),
    ].sort();
    this.operations.push({ ...spec, ...this.defaults, method, path, errors });
    const koaPath = path.replace(/\{(\w+)\}/g, ':$1');
    const validation = [
      ...(spec.query ? [validateQuery(spec.query) as RouterMiddleware<State>] : []),
      ...(spec.body ? [validateBody(spec.body, { optional: spec.bodyOptional ?? false }) as RouterMiddleware<State>] : []),
    ];
    this.router[method](koaPath, ...([...validation, ...handlers] as never[]));
    return this;
  }
}

/** What the request's own body and query can be refused with: invalid (400); a body too large (413) or not JSON (415). */
function requestErrors(spec: OperationSpec): number[] {
  if (spec.body) return [400, 413, 415];
  return spec.query ? [400] : [];
}
