import { insufficientPermission } from '@app/domain/shared';
import type { Actor } from '@app/domain/users';
import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UserGroupsService } from '../application/user-groups.service.js';

const SETTING = 'svc:realm-setting';
/** The actor must hold this organization permission setting (checked before any parameter). */
export const RequireRealmSetting = (setting: string): MethodDecorator => SetMetadata(SETTING, setting);

@Injectable()
export class RealmSettingGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly groups: UserGroupsService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const setting = this.reflector.get<string | undefined>(SETTING, ctx.getHandler());
    if (setting === undefined) return true;
    const actor = ctx.switchToHttp().getRequest().user as Actor;
    if (!(await this.groups.holdsRealmSetting(actor, setting))) throw insufficientPermission();
    return true;
  }
}
