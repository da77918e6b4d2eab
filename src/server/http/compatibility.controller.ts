import { checkClientCompatibility } from '@app/domain/shared';
import { Controller, Get, Headers } from '@nestjs/common';
import { Public } from '../../shared/auth/decorators.js';

@Controller()
@Public()
export class CompatibilityController {
  /**
   * GET /compatibility (Zulip's check_global_compatibility, outside /api/v1, no credentials): the
   * mobile apps ask it at start-up; a client too old for this server is told so.
   */
  @Get('compatibility')
  compatibility(@Headers('user-agent') userAgent: string | undefined) {
    checkClientCompatibility(userAgent);
    return {};
  }
}
