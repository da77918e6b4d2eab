import { type ArgumentMetadata, Injectable, NotFoundException, type PipeTransform } from '@nestjs/common';
import { checkText } from './params/decoders.js';

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

/**
 * `users/{user_id}` and `users/{email}` share a path in Zulip: an integer segment is an id, an
 * address with `@` is an email (looked up as Zulip's access_user_by_email does). Anything else
 * does not match the route, as the seed's wire conventions have it (spec 01: a non-numeric id
 * segment is an unknown route), where Zulip would answer "No such user".
 */
@Injectable()
export class UserRefPipe implements PipeTransform<string, number | string> {
  transform(value: string): number | string {
    if (INTEGER_SEGMENT.test(value)) return Number(value);
    if (!value.includes('@')) throw new NotFoundException(`Cannot route a non-numeric id segment`);
    return value;
  }
}

/**
 * The one rule for text (checkText) on path segments as well ({user_id} given as an email,
 * {emoji_name}, {domain}...): a NUL or an unpaired surrogate is refused naming the segment.
 * Bound as a global pipe; it looks at route parameters only.
 */
@Injectable()
export class PathTextPipe implements PipeTransform<unknown, unknown> {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type !== 'param') return value;
    // A string, or the segments of a wildcard route ({emoji_name} may hold slashes).
    if (typeof value === 'string' || Array.isArray(value)) checkText(Array.isArray(value) ? value.join('/') : value, meta.data ?? 'path');
    return value;
  }
}
