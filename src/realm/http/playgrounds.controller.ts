import type { Actor } from '@app/domain/users';
import { Controller, Delete, Param } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { PlaygroundsService } from '../application/playgrounds.service.js';
import { PlaygroundDto } from './realm-resources.dto.js';

/** Code playgrounds; they are listed only through POST /register (realm_playgrounds). */
@Controller('api/v1/realm/playgrounds')
export class PlaygroundsController {
  constructor(private readonly playgrounds: PlaygroundsService) {}

  @ApiPost()
  @Require('admin')
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: PlaygroundDto) {
    const id = await this.playgrounds.addPlayground(actor, {
      name: p.name,
      pygmentsLanguage: p.pygments_language,
      urlTemplate: p.url_template,
    });
    return { id };
  }

  @Delete(':playground_id')
  @Require('admin')
  async remove(@CurrentActor() actor: Actor, @Param('playground_id', PathIntPipe) id: number) {
    await this.playgrounds.removePlayground(actor, id);
    return {};
  }
}
