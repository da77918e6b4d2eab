import type { Actor } from '@app/domain/users';
import { Controller } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RegisterService } from '../application/register.service.js';
import { RegisterDto } from './register.dto.js';

@Controller('api/v1')
export class RegisterController {
  constructor(private readonly register: RegisterService) {}

  /**
   * The initial state for the requested sections: `fetch_event_types`, else `event_types`,
   * else every section.
   */
  @ApiPost('register')
  async registerClient(@CurrentActor() actor: Actor, @ZulipParams() p: RegisterDto) {
    const selector = p.fetch_event_types ?? p.event_types;
    const want = (section: string) => selector === null || selector.includes(section);
    return this.register.initialState(actor, want, p.client_gravatar, {
      linkifierUrlTemplate: p.client_capabilities.linkifier_url_template === true,
    });
  }
}
