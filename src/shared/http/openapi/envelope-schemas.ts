import type { JsonSchema } from '../params/decoders.js';

/**
 * The envelope of every JSON answer, as zulip.yaml defines it (JsonSuccessBase, JsonError):
 * `result` and `msg` always, `code` on every error, and the extra keys some errors carry
 * (`var_name`, `stream`, `retry-after`...).
 */
export const ENVELOPE_SCHEMAS: Record<string, JsonSchema> = {
  JsonSuccessBase: {
    type: 'object',
    required: ['result', 'msg'],
    properties: {
      result: { type: 'string', enum: ['success'] },
      msg: { type: 'string' },
      ignored_parameters_unsupported: {
        type: 'array',
        items: { type: 'string' },
        description: 'Parameters the request carried that this endpoint does not read.',
      },
    },
  },
  JsonSuccess: {
    description: 'A success answer whose other fields are not described here.',
    allOf: [{ $ref: '#/components/schemas/JsonSuccessBase' }],
    additionalProperties: true,
  },
  JsonError: {
    type: 'object',
    required: ['result', 'msg', 'code'],
    properties: {
      result: { type: 'string', enum: ['error'] },
      msg: { type: 'string' },
      code: { type: 'string', description: "Zulip's error code, e.g. BAD_REQUEST, UNAUTHORIZED, RATE_LIMIT_HIT." },
    },
    additionalProperties: true,
  },
  MethodNotAllowedError: {
    type: 'object',
    required: ['result', 'msg', 'allowed_methods'],
    properties: {
      result: { type: 'string', enum: ['error'] },
      msg: { type: 'string', enum: ['Method Not Allowed'] },
      allowed_methods: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: false,
  },
};

const error = (description: string, schema = 'JsonError') => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

/** The error answers any route may give, by status. */
export const ERROR_RESPONSES: Record<string, Record<string, unknown>> = {
  BadRequest: error('Bad request: a missing or invalid parameter, or a rule of the operation (code BAD_REQUEST and others).'),
  Unauthorized: error('No or bad credentials (code UNAUTHORIZED, with a `WWW-Authenticate` header), or a deactivated account or organization.'),
  Forbidden: error('The caller may not do this (role, bot, organization setting).'),
  NotFound: error('No such route, or an object that does not exist or that the caller cannot see.'),
  MethodNotAllowed: error('The path exists for other methods (`Allow` header, `allowed_methods`).', 'MethodNotAllowedError'),
  RequestTimeout: error('The request was not received in time.'),
  Conflict: error('The object changed meanwhile.'),
  PayloadTooLarge: error('The body, a file or a parameter is over its limit.'),
  TooManyRequests: error('Rate limit hit (code RATE_LIMIT_HIT, `retry-after` in the body and the `Retry-After` header).'),
  HeadersTooLarge: error('The request head is over its limit.'),
  InternalServerError: error('An unexpected failure (code INTERNAL_SERVER_ERROR); logged by the server.'),
  BadGateway: error('A service the server relies on (the push relay) failed.'),
  ServiceUnavailable: error('The database is unreachable (code SERVICE_UNAVAILABLE, `Retry-After` header); nothing was done, try again.'),
};

const STATUS_OF_RESPONSE: Record<string, string> = {
  '400': 'BadRequest',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'NotFound',
  '405': 'MethodNotAllowed',
  '408': 'RequestTimeout',
  '409': 'Conflict',
  '413': 'PayloadTooLarge',
  '429': 'TooManyRequests',
  '431': 'HeadersTooLarge',
  '500': 'InternalServerError',
  '502': 'BadGateway',
  '503': 'ServiceUnavailable',
};

/** The `responses` entries every operation has besides its success. */
export const errorResponseRefs = (): Record<string, { $ref: string }> =>
  Object.fromEntries(Object.entries(STATUS_OF_RESPONSE).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]));
