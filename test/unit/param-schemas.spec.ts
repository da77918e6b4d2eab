import 'reflect-metadata';
import {
  bool,
  declaredParamsOf,
  described,
  dict,
  float,
  int,
  JsonParam,
  LenientJsonParam,
  list,
  literal,
  nullable,
  oneOf,
  PlainParam,
  schemaOf,
  str,
} from '../../src/shared/http/params/index.js';
import { buildOpenApiDocument, openApiPath } from '../../src/shared/http/openapi/openapi-document.js';

/** The JSON Schemas the decoders carry for the API reference, and the operations built from a DTO. */
describe('decoder schemas', () => {
  it('describe what each decoder accepts', () => {
    expect(schemaOf(str({ maxLength: 60, minLength: 1 }))).toEqual({ type: 'string', maxLength: 60, minLength: 1 });
    expect(schemaOf(int({ min: 0, max: 10 }))).toEqual({ type: 'integer', minimum: 0, maximum: 10 });
    expect(schemaOf(int({ oneOf: [1, 2] }))).toEqual({ type: 'integer', enum: [1, 2] });
    expect(schemaOf(bool())).toEqual({ type: 'boolean' });
    expect(schemaOf(float())).toEqual({ type: 'number' });
    expect(schemaOf(literal(['add', 'remove']))).toEqual({ type: 'string', enum: ['add', 'remove'] });
    expect(schemaOf(list(int(), { maxItems: 3 }))).toEqual({ type: 'array', items: { type: 'integer' }, maxItems: 3 });
    expect(schemaOf(nullable(str()))).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(schemaOf(oneOf<unknown>(int(), str()))).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(schemaOf(dict({ name: { decoder: str() }, color: { decoder: str(), optional: true } }))).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, color: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('are any value for a decoder nobody described, and what described() says otherwise', () => {
    expect(schemaOf((v) => v)).toEqual({});
    expect(schemaOf(described((v) => v, { type: 'integer' }))).toEqual({ type: 'integer' });
  });
});

class ExampleDto {
  @PlainParam(str(), { aliases: ['subject'] }) topic: string;
  @JsonParam(list(int()), { default: [] }) ids: number[];
  @LenientJsonParam(oneOf<unknown>(int(), str()), { optional: true }) to?: unknown;
}

describe('operations built from a DTO', () => {
  const route = (method: string) => ({
    method,
    path: '/api/v1/things/:thing_id',
    params: declaredParamsOf(ExampleDto),
    public: false,
    raw: false,
    tag: 'Things',
    handler: 'thing',
    requires: [],
  });

  it('take GET parameters from the query, JSON-typed ones as application/json content', () => {
    const doc = buildOpenApiDocument([route('GET')], { version: 'test' });
    const op = doc.paths['/api/v1/things/{thing_id}'].get as { parameters: unknown[] };
    expect(op.parameters).toEqual([
      { name: 'thing_id', in: 'path', required: true, schema: { type: 'integer' } },
      { name: 'topic', in: 'query', required: true, description: 'Also accepted as `subject`.', schema: { type: 'string' } },
      { name: 'ids', in: 'query', required: false, content: { 'application/json': { schema: { type: 'array', items: { type: 'integer' }, default: [] } } } },
      expect.objectContaining({ name: 'to', in: 'query', required: false, content: { 'application/json': expect.anything() } }),
    ]);
  });

  it('take other methods\' parameters from a form or multipart body, JSON-typed ones encoded as application/json', () => {
    const doc = buildOpenApiDocument([route('PATCH')], { version: 'test' });
    const op = doc.paths['/api/v1/things/{thing_id}'].patch as { requestBody: { required: boolean; content: Record<string, { schema: { required: string[] }; encoding: object }> } };
    expect(op.requestBody.required).toBe(true);
    const form = op.requestBody.content['application/x-www-form-urlencoded'];
    expect(form.schema.required).toEqual(['topic']);
    expect(form.encoding).toEqual({ ids: { contentType: 'application/json' }, to: { contentType: 'application/json' } });
    expect(op.requestBody.content['multipart/form-data']).toEqual(form);
  });

  it('spell Express paths as OpenAPI templates, wildcards included', () => {
    expect(openApiPath('/api/v1/realm/emoji/*emoji_name')).toBe('/api/v1/realm/emoji/{emoji_name}');
    expect(openApiPath('/api/v1/users/:user_id/subscriptions/:stream_id')).toBe('/api/v1/users/{user_id}/subscriptions/{stream_id}');
  });
});
