import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import { RegisterController } from '../../events/http/register.controller.js';
import { ServerMetrics } from './server-metrics.js';

/** Counts the events in every answer of GET /api/v1/events (`svc_events_delivered_total`). */
@Injectable()
export class EventsDeliveredInterceptor implements NestInterceptor {
  constructor(private readonly metrics: ServerMetrics) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getClass() !== RegisterController || ctx.getHandler() !== RegisterController.prototype.events) return next.handle();
    return next.handle().pipe(
      tap((answer: { events?: unknown } | undefined) => {
        if (Array.isArray(answer?.events) && answer.events.length > 0) this.metrics.eventsDelivered.inc(answer.events.length);
      }),
    );
  }
}
