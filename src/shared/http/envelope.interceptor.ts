import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { ignoredParams } from './params/request-params.js';

export const RAW_RESPONSE = 'svc:raw-response';
/** The handler's return value is the whole body (e.g. /health), without the Zulip envelope. */
export const RawResponse = (): MethodDecorator => SetMetadata(RAW_RESPONSE, true);

/**
 * Wraps a handler's result in the success envelope: `result`, `msg`, the fields, then
 * `ignored_parameters_unsupported` (sorted) when the request carried parameters nothing read.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  /** Whether each handler is @RawResponse() (decorator metadata never changes: read once per handler). */
  private readonly raw = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.isRaw(ctx.getHandler())) return next.handle();
    const req = ctx.switchToHttp().getRequest<Request>();
    return next.handle().pipe(map((data: Record<string, unknown> | undefined) => envelope(req, data)));
  }

  isRaw(handler: object): boolean {
    let raw = this.raw.get(handler);
    if (raw === undefined) {
      raw = this.reflector.get<boolean>(RAW_RESPONSE, handler as () => unknown) === true;
      this.raw.set(handler, raw);
    }
    return raw;
  }
}

function envelope(req: Request, data: Record<string, unknown> | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  const ignored = ignoredParams(req);
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  return body;
}
