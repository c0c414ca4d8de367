import { createAjv } from '#platform/json-schema.js';

/** An answer as a test saw it. */
export interface SeenAnswer {
  method: string;
  /** The request path, query string allowed. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  components?: object;
}

/**
 * Checks answers against the OpenAPI document the API publishes about itself: the status must be
 * one the operation documents, and a JSON body must match that status's schema. An answer of no
 * known operation (an unknown path, say) must still be the one error body. Returns what is wrong,
 * or undefined.
 */
export function createResponseChecker(document: OpenApiDocument) {
  const ajv = createAjv({ strict: false });
  ajv.addSchema({ ...document, $id: 'openapi' });
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `openapi#${pointer}` })));
    return validate;
  };
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  const templateOf = (path: string) =>
    // A literal segment wins over a parameter (`/articles/questions` before `/articles/{id}`).
    templates
      .filter(({ pattern }) => pattern.test(path))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))[0]?.template;

  return function problemOf(answer: SeenAnswer): string | undefined {
    const path = answer.path.split('?')[0]!;
    const template = templateOf(path);
    const method = answer.method.toLowerCase();
    const operation = template ? document.paths[template]![method] : undefined;
    if (!operation) {
      if (answer.status < 400) return `${answer.status} for an operation the document does not list`;
      // A path of pages (the help centre) answers another method with its error page too.
      if (template && answersErrorPages(template) && answer.contentType?.startsWith('text/html')) return undefined;
      return mismatch(validatorAt('/components/schemas/Error'), answer.body);
    }
    const response = operation.responses[String(answer.status)];
    if (!response) return `status ${answer.status} is not documented for ${method.toUpperCase()} ${template}`;
    if (!response.content?.['application/json']) return undefined; // a stream, a page, or no body
    if (!answer.contentType?.startsWith('application/json')) return `documented as JSON, answered as ${answer.contentType}`;
    const pointer = ['paths', template!, method, 'responses', String(answer.status), 'content', 'application/json', 'schema']
      .map((token) => encodeURIComponent(token.replaceAll('~', '~0').replaceAll('/', '~1')))
      .join('/');
    return mismatch(validatorAt(`/${pointer}`), answer.body);
  };

  function answersErrorPages(template: string): boolean {
    return Object.values(document.paths[template]!).some((operation) =>
      Object.entries(operation.responses).some(([status, response]) => Number(status) >= 400 && response.content?.['text/html']),
    );
  }

  function mismatch(validate: ReturnType<typeof ajv.compile>, body: unknown): string | undefined {
    return validate(body) ? undefined : `the body does not match its documented schema: ${ajv.errorsText(validate.errors)}`;
  }
}

export type ResponseChecker = ReturnType<typeof createResponseChecker>;
