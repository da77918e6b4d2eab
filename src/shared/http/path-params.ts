import { DomainError } from '@app/domain/shared';
import { Injectable, type PipeTransform } from '@nestjs/common';

/**
 * Integer path segments ({user_id}, {stream_id}...). In Zulip a non-numeric segment does not
 * match the route at all, so it answers like an unknown route.
 */
@Injectable()
export class PathIntPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,9}$/.test(value)) throw new DomainError('Not Found', 'NOT_FOUND', 'not_found');
    return Number(value);
  }
}
