import type { Context } from 'koa';

/** A route as @koa/router matched it: its template and the methods it answers. */
interface MatchedLayer {
  path: string | RegExp;
  methods: string[];
}

/** What every request no route matched is counted and traced as. */
export const unmatchedRoute = 'unmatched';

/**
 * The template of the route that answered the request, written the OpenAPI way
 * (`/chat/conversations/{conversationId}/messages`), never the path itself: metrics and traces
 * label requests by it, so ids in paths never become labels. A path that matched a route but not
 * its method (405) names the route; one that matched none is `unmatched`.
 */
export function routeTemplateOf(ctx: Context): string {
  const matched = ((ctx as Context & { matched?: MatchedLayer[] }).matched ?? []).filter(
    (layer) => layer.methods.length > 0 && typeof layer.path === 'string',
  );
  const route = matched.findLast((layer) => layer.methods.includes(ctx.method)) ?? matched.at(-1);
  return route ? String(route.path).replace(/:(\w+)/g, '{$1}') : unmatchedRoute;
}
