import type { Actor } from '@app/domain/users';
import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';

export const PUBLIC = 'svc:public';
/** No authentication (server_settings, fetch_api_key, health). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC, true);

/**
 * Zulip's role/kind decorators, checked after authentication and before any parameter:
 * - human: no bots;
 * - member: no guests, no bots (require_member_or_admin);
 * - no_guest: no guests;
 * - admin / owner: organization administrators / owners;
 * - bot: bots only (bot storage).
 */
export type Requirement = 'human' | 'member' | 'no_guest' | 'admin' | 'owner' | 'bot';
export const REQUIRE = 'svc:require';
export const Require = (...r: Requirement[]): MethodDecorator & ClassDecorator => SetMetadata(REQUIRE, r);

/** The authenticated caller. */
export const CurrentActor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor => ctx.switchToHttp().getRequest().user as Actor,
);
