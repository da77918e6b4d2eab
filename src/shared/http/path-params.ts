import { Injectable, NotFoundException, type PipeTransform } from '@nestjs/common';

/** What an integer path segment looks like (Zulip's `<int:…>` route converters). */
export const INTEGER_SEGMENT = /^\d{1,9}$/;

/**
 * Integer path segments ({user_id}, {stream_id}...). In Zulip a non-numeric segment does not
 * match the route at all, so it answers like a route miss: 404, or 405 when another route takes
 * that path (`messages/render` is not `messages/{message_id}`).
 */
@Injectable()
export class PathIntPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!INTEGER_SEGMENT.test(value)) throw new NotFoundException(`Cannot route a non-numeric id segment`);
    return Number(value);
  }
}
