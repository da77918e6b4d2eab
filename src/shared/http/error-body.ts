import { DomainError, type ErrorKind } from '@app/domain/shared';

export const STATUS_OF: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  bad_gateway: 502,
};

/** Zulip's error body: result, msg, the error's extra fields, then code. */
export function errorBody(e: DomainError): Record<string, unknown> {
  return { result: 'error', msg: e.msg, ...e.data, code: e.code };
}
