import { type JsonSchema, schemaOf } from '../params/decoders.js';
import type { DeclaredParam } from '../params/zulip-params.js';
import { ENVELOPE_SCHEMAS, ERROR_RESPONSES, errorResponseRefs } from './envelope-schemas.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';

/** One route of the server as its controller declares it: what the API reference is made of. */
export interface RouteInfo {
  method: string;
  /** The Express path, e.g. `/api/v1/users/:user_id` or `/api/v1/realm/emoji/*emoji_name`. */
  path: string;
  params: DeclaredParam[];
  public: boolean;
  /** `@RawResponse()`: the handler writes its own body (files, pages, /health), no envelope. */
  raw: boolean;
  /** The controller's name without `Controller` (the operation's tag). */
  tag: string;
  handler: string;
  /** Role or kind requirements (`@Require`). */
  requires: string[];
}

/** An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0), as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };
type Operation = Record<string, unknown>;

/** `/api/v1/users/:user_id` → `/api/v1/users/{user_id}`; a wildcard `*emoji_name` → `{emoji_name}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const pathParamNames = (expressPath: string): string[] => [...expressPath.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);

/** JSON-encoded parameters (everything but plain strings), as zulip.yaml marks them. */
const isJson = (p: DeclaredParam): boolean => p.encoding !== 'plain';

function paramSchema(p: DeclaredParam): JsonSchema {
  const schema: JsonSchema = { ...schemaOf(p.decoder) };
  if (p.default !== undefined && p.default !== null && typeof p.default !== 'function') schema.default = p.default;
  return schema;
}

function paramDescription(p: DeclaredParam): string | undefined {
  const notes: string[] = [];
  if (p.aliases.length > 0) notes.push(`Also accepted as ${p.aliases.map((a) => `\`${a}\``).join(', ')}.`);
  if (p.encoding === 'lenient') notes.push('JSON when it parses, else the text as sent.');
  return notes.length > 0 ? notes.join(' ') : undefined;
}

function pathParameters(route: RouteInfo): Record<string, unknown>[] {
  return pathParamNames(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: name.endsWith('_id') && name !== 'user_id' ? { type: 'integer' } : name === 'user_id' ? { anyOf: [{ type: 'integer' }, { type: 'string', format: 'email' }] } : { type: 'string' },
  }));
}

function queryParameters(params: DeclaredParam[]): Record<string, unknown>[] {
  return params.map((p) => {
    const description = paramDescription(p);
    const where = { name: p.name, in: 'query', required: p.required, ...(description ? { description } : {}) };
    return isJson(p) ? { ...where, content: { 'application/json': { schema: paramSchema(p) } } } : { ...where, schema: paramSchema(p) };
  });
}

/** Form-encoded (or multipart) body; JSON-typed values carry `contentType: application/json`, as in zulip.yaml. */
function requestBody(params: DeclaredParam[]): Record<string, unknown> {
  const properties = Object.fromEntries(
    params.map((p) => {
      const description = paramDescription(p);
      return [p.name, description ? { ...paramSchema(p), description } : paramSchema(p)];
    }),
  );
  const required = params.filter((p) => p.required).map((p) => p.name);
  const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  const jsonEncoded = params.filter(isJson);
  const encoding = Object.fromEntries(jsonEncoded.map((p) => [p.name, { contentType: 'application/json' }]));
  const media = { schema, ...(jsonEncoded.length > 0 ? { encoding } : {}) };
  return { required: required.length > 0, content: { 'application/x-www-form-urlencoded': media, 'multipart/form-data': media } };
}

const routeKey = (route: RouteInfo) => `${route.method} ${openApiPath(route.path)}`;

function successResponse(route: RouteInfo): Record<string, unknown> {
  const own = RESPONSE_SCHEMAS[routeKey(route)];
  if (route.raw) return own ?? { description: 'The answer as it is (not the JSON envelope).', content: { '*/*': { schema: {} } } };
  const schema = own ? { allOf: [{ $ref: '#/components/schemas/JsonSuccessBase' }, own] } : { $ref: '#/components/schemas/JsonSuccess' };
  return { description: 'Success.', content: { 'application/json': { schema } } };
}

/** The error answers, where a route answers one of them its own way (keyed `METHOD /path STATUS`). */
function ownErrorResponses(route: RouteInfo): Record<string, unknown> {
  const refs: Record<string, unknown> = errorResponseRefs();
  for (const status of Object.keys(refs)) refs[status] = RESPONSE_SCHEMAS[`${routeKey(route)} ${status}`] ?? refs[status];
  return refs;
}

/** A redirect the route answers (keyed `METHOD /path 302`), if it has one. */
function redirectResponse(route: RouteInfo): Record<string, unknown> {
  const own = RESPONSE_SCHEMAS[`${routeKey(route)} 302`];
  return own === undefined ? {} : { '302': own };
}

function operation(route: RouteInfo, operationId: string): Operation {
  const get = route.method === 'GET';
  const declared = route.params;
  const requires = route.requires.length > 0 ? ` Requires: ${route.requires.join(', ')}.` : '';
  return {
    operationId,
    tags: [route.tag],
    summary: `${route.method} ${openApiPath(route.path)}`,
    ...(requires ? { description: requires.trim() } : {}),
    ...(route.public ? { security: [] } : {}),
    parameters: [...pathParameters(route), ...(get ? queryParameters(declared) : [])],
    ...(!get && declared.length > 0 ? { requestBody: requestBody(declared) } : {}),
    responses: { '200': successResponse(route), ...redirectResponse(route), ...ownErrorResponses(route) },
  };
}

/** The API reference of these routes. */
export function buildOpenApiDocument(routes: RouteInfo[], o: { version: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.method === 'OPTIONS') continue;
    const item = (paths[openApiPath(route.path)] ??= {});
    // One handler may serve several paths (an alias): the later ones are named by their path too.
    let id = `${route.tag}_${route.handler}`;
    if (ids.has(id)) id = `${id}_${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
    ids.add(id);
    item[route.method.toLowerCase()] = operation(route, id);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc REST API',
      version: o.version,
      description:
        'The REST API of this server, which speaks Zulip\'s API (parameters form-encoded, typed values JSON-encoded; ' +
        'answers in the `result`/`msg` envelope). Generated from the server\'s controllers and parameter declarations. ' +
        'The web app calls every operation of `/api/v1/<path>` (but `fetch_api_key` and `users/me/api_key/regenerate`) as ' +
        '`/json/<path>`, authenticated by its `sessionid` cookie instead (POST /accounts/login/), unsafe methods with the ' +
        '`X-CSRFToken` header equal to the `csrftoken` cookie.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'This server (the organization is chosen by the Host header).' }],
    security: [{ basicAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'Email (or bot email) and API key.' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sessionid', description: 'The web app\'s browser session, for the same operations under `/json/`.' },
      },
      schemas: ENVELOPE_SCHEMAS,
      responses: ERROR_RESPONSES,
    },
  };
}
