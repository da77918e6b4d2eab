import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { discoverRoutes } from '../../support/api-fuzz.js';
import { OpenApiChecker } from '../../support/openapi-check.js';
import { json, sessionOf } from '../../support/sessions.js';
import { type Account, TestApp } from '../../support/test-app.js';
import type { OpenApiDocument } from '../../../src/shared/http/openapi/openapi-document.js';

/**
 * The API reference (issue 16, item 3): GET /api/v1/openapi.json is an OpenAPI 3.1 document
 * built from the controllers and their parameter declarations. It is valid against the
 * OpenAPI Initiative's schema of 3.1 documents, every route of the live router is in it (and
 * nothing else), and the shared test client checks every answer of the e2e suite against it
 * (test/support/openapi-check.ts), which is proved here to catch what it must.
 */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;
/** schemas/v3.1/schema.json (2022-10-07) of github.com/OAI/OpenAPI-Specification (Apache-2.0). */
const OAS_31_TEXT = readFileSync(new URL('../../support/fixtures/oas-3.1-schema.json', import.meta.url), 'utf8');
/**
 * Its schema objects are `{"$dynamicRef": "#meta"}`, which ajv resolves to the document's root
 * (whose unevaluatedProperties then refuses every schema keyword) instead of the `$defs/schema`
 * that carries `$dynamicAnchor: meta`. Without a dialect extending it, that is what it means.
 */
const OAS_31_SCHEMA = JSON.parse(OAS_31_TEXT.replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"')) as object;

let t: TestApp;
let doc: OpenApiDocument;
let member: Account;

beforeAll(async () => {
  t = await TestApp.start();
  member = await t.createUser();
  doc = (await t.get('openapi.json', { as: null })).body as OpenApiDocument;
});
afterAll(async () => {
  await t.close();
});

type Operation = { operationId: string; parameters: { name: string; in: string }[]; responses: Record<string, unknown>; requestBody?: unknown };
const operations = (): [string, string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [path, method, op as Operation] as [string, string, Operation]));

describe('GET /api/v1/openapi.json', () => {
  it('is public, JSON, the same for every caller and organization, and names the brand svc', async () => {
    const anonymous = await t.get('openapi.json', { as: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
    expect(anonymous.body).toMatchObject({ openapi: '3.1.0', info: { title: 'svc REST API' } });
    // svc_* always; Zulip's zulip_* names only as the optional ZULIP_CLIENT_COMPAT copies.
    const settings = anonymous.body.paths['/api/v1/server_settings'].get.responses['200'].content['application/json'].schema.allOf[1];
    expect(settings.required).toEqual(expect.arrayContaining(['svc_version', 'svc_feature_level']));
    expect(settings.required.filter((f: string) => f.startsWith('zulip'))).toEqual([]);
    const other = await t.createOrganization('elsewhere');
    for (const as of [member, other, { ...member, apiKey: 'x'.repeat(32) }]) {
      const res = await t.get('openapi.json', { as });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(anonymous.body);
    }
  });

  it('ignores parameters, and other methods get 405', async () => {
    const res = await t.get('openapi.json', { as: null, query: { format: 'yaml' } });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const post = await t.post('openapi.json', { as: null, form: { x: 1 } });
    expect({ status: post.status, body: post.body }).toEqual({ status: 405, body: { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] } });
  });

  it('is a valid OpenAPI 3.1 document whose schemas are valid JSON Schema 2020-12', () => {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addFormat('media-range', true); // the schema's own format for media types
    const validate = ajv.compile(OAS_31_SCHEMA);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true);
    const schemas = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true });
    const found: [string, object][] = Object.entries((doc.components as { schemas: Record<string, object> }).schemas);
    // Every `schema` of parameters, bodies and responses.
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'schema' && typeof value === 'object') found.push([at, value as object]);
        else walk(value, `${at}/${key}`);
      }
    };
    walk(doc.paths, '');
    expect(found.length).toBeGreaterThan(300);
    for (const [where, schema] of found) expect(schemas.validateSchema(schema), `${where}: ${JSON.stringify(schemas.errors)}`).toBe(true);
  });

  it('has every route of the router, and only those, each with unique ids, its path parameters and the error envelope', () => {
    const toDoc = (method: string, path: string) => `${method} ${path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')}`;
    const served = new Set(discoverRoutes(t.app).filter((r) => r.method !== 'HEAD').map((r) => toDoc(r.method, r.path)));
    const documented = new Set(operations().map(([path, method]) => `${method.toUpperCase()} ${path}`));
    expect([...served].filter((r) => !documented.has(r)), 'routes missing from the document').toEqual([]);
    expect([...documented].filter((r) => !served.has(r)), 'documented routes the server does not have').toEqual([]);
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, method, op] of operations()) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name), `${method} ${path}`).toEqual(inPath);
      for (const status of ['200', '400', '401', '403', '404', '413', '429', '503']) expect(op.responses, `${method} ${path}`).toHaveProperty(status);
    }
  });

  it('describes parameters as Zulip does: query for GET, form-encoded bodies otherwise, JSON-typed values marked application/json', () => {
    const get = doc.paths['/api/v1/messages'].get as { parameters: Record<string, unknown>[] };
    expect(get.parameters).toContainEqual(expect.objectContaining({ name: 'narrow', in: 'query', content: { 'application/json': expect.anything() } }));
    expect(get.parameters).toContainEqual(expect.objectContaining({ name: 'num_before', in: 'query', content: { 'application/json': { schema: expect.objectContaining({ type: 'integer' }) } } }));
    const send = doc.paths['/api/v1/messages'].post as { requestBody: { content: Record<string, { schema: { properties: object; required: string[] }; encoding: object }> } };
    const form = send.requestBody.content['application/x-www-form-urlencoded'];
    expect(form.schema.required).toEqual(expect.arrayContaining(['type', 'content']));
    expect(form.schema.properties).toMatchObject({ content: { type: 'string' }, read_by_sender: { type: 'boolean' } });
    expect(form.encoding).toMatchObject({ read_by_sender: { contentType: 'application/json' } });
    expect(form.encoding).not.toHaveProperty('content');
    expect(send.requestBody.content).toHaveProperty(['multipart/form-data']);
  });
});

describe('the check of every answer against the document', () => {
  const checker = () => new OpenApiChecker(doc);
  const seen = (o: Partial<Parameters<OpenApiChecker['check']>[0]>) =>
    checker().check({ method: 'GET', url: '/api/v1/users/me', status: 200, contentType: 'application/json; charset=utf-8', body: {}, ...o });

  it('passes real answers, the error envelope on any route, and route misses', async () => {
    const me = await t.get('users/me', { as: member });
    expect(seen({ body: me.body })).toBeNull();
    expect(seen({ status: 401, body: { result: 'error', msg: 'Not logged in', code: 'UNAUTHORIZED' } })).toBeNull();
    expect(seen({ url: '/api/v1/no_such_route', status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } })).toBeNull();
    // Routes outside /api/v1 (which the test client does not check) are described too.
    for (const url of ['/health', '/api/docs', '/api/docs/swagger-ui.css']) {
      const res = await t.get(url, { as: null });
      expect(seen({ url, status: res.status, contentType: res.headers['content-type'], body: res.body }), url).toBeNull();
    }
    expect(seen({ url: '/health', status: 503, body: { status: 'unavailable', details: { email: 'not configured' } } })).toBeNull();
  });

  it('fails a body that does not match, an undocumented route or status, and a broken envelope', async () => {
    const me = (await t.get('users/me', { as: member })).body as Record<string, unknown>;
    expect(seen({ body: { ...me, user_id: 'seven' } })).toMatch(/GET \/api\/v1\/users\/me → 200.*does not match.*\/user_id must be integer/s);
    expect(seen({ body: { result: 'success' } })).toMatch(/must have required property 'msg'/);
    expect(seen({ url: '/api/v1/not_documented', body: { result: 'success', msg: '' } })).toMatch(/route is not in the OpenAPI document/);
    expect(seen({ status: 418, body: {} })).toMatch(/status 418 is not documented for GET \/api\/v1\/users\/me/);
    expect(seen({ status: 400, body: { result: 'error', msg: 'x' } })).toMatch(/must have required property 'code'/);
    expect(seen({ contentType: 'text/html', body: {} })).toMatch(/content type text\/html is not documented/);
  });

  it('is on in the shared test client: a call whose answer the document does not allow fails', async () => {
    const broken = structuredClone(doc);
    const me = (broken.paths['/api/v1/users/me'].get.responses as Record<string, { content: Record<string, { schema: object }> }>)['200'];
    me.content['application/json'].schema = { type: 'object', required: ['no_such_field'] };
    // The client keeps its checker per app: a fresh app's client, given the altered document.
    const client = t as unknown as { checker: OpenApiChecker | null };
    const kept = client.checker;
    client.checker = new OpenApiChecker(broken);
    try {
      await expect(t.get('users/me', { as: member })).rejects.toThrow(/OpenAPI: GET \/api\/v1\/users\/me → 200 .*no_such_field/s);
      await expect(t.get('users/me', { as: member, notDocumented: 'this test' })).resolves.toHaveProperty('status', 200);
      // The web app's /json/<path> answers are held to the /api/v1/<path> operation.
      const session = (await sessionOf(t, member))!;
      await expect(json(t, 'get', 'users/me', session)).rejects.toThrow(/OpenAPI: GET \/api\/v1\/users\/me → 200 .*no_such_field/s);
    } finally {
      client.checker = kept;
    }
  });
});

describe('GET /api/docs', () => {
  it('serves a Swagger UI page reading the document, with its own files', async () => {
    const page = await t.get('/api/docs', { as: null });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('/api/docs/swagger-ui-bundle.js');
    const init = await t.get('/api/docs/swagger-ui-init.js', { as: null });
    expect(init.text).toContain("url: '/api/v1/openapi.json'");
    const bundle = await t.get('/api/docs/swagger-ui-bundle.js', { as: null });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.text.length).toBeGreaterThan(100_000);
  });

  it('serves nothing else of the package, and no path outside it', async () => {
    for (const asset of ['package.json', 'index.html', '..%2Fpackage.json', '%2e%2e']) {
      const res = await t.get(`/api/docs/${asset}`, { as: null });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' } });
    }
  });
});
