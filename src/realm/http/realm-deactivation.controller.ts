import type { Actor } from '@app/domain/users';
import { Controller } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RealmDeactivationService } from '../application/realm-deactivation.service.js';
import { DeactivateRealmDto } from './realm-deactivation.dto.js';

@Controller('api/v1/realm')
export class RealmDeactivationController {
  constructor(private readonly deactivation: RealmDeactivationService) {}

  /** POST /realm/deactivate (require_realm_owner). */
  @ApiPost('deactivate')
  @Require('owner')
  async deactivate(@CurrentActor() actor: Actor, @ZulipParams() p: DeactivateRealmDto) {
    await this.deactivation.deactivateRealm(actor, p.deletion_delay_days);
    return {};
  }
}
