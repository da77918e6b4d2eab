/**
 * The one error type of the domain. `msg` is Zulip's exact text, `code` its machine-readable
 * code, `kind` picks the HTTP status in the exception filter, `data` holds the extra envelope
 * keys some errors carry (`var_name`, `stream`, ...).
 */
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'rate_limited' // 429
  | 'bad_gateway'; // 502

export class DomainError extends Error {
  constructor(
    readonly msg: string,
    readonly code: string = 'BAD_REQUEST',
    readonly kind: ErrorKind = 'invalid',
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(msg);
    this.name = 'DomainError';
  }
}

/** A 400 BAD_REQUEST with the given text: the most common error of the API. */
export function badRequest(msg: string, data: Record<string, unknown> = {}): DomainError {
  return new DomainError(msg, 'BAD_REQUEST', 'invalid', data);
}

export const insufficientPermission = (): DomainError => badRequest('Insufficient permission');
