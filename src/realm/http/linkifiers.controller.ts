import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { LinkifiersService } from '../application/linkifiers.service.js';
import { LinkifierDto, ReorderLinkifiersDto } from './realm-resources.dto.js';
import { presentLinkifier } from '../application/realm-resources.views.js';

const input = (p: LinkifierDto) => ({
  pattern: p.pattern,
  urlTemplate: p.url_template,
  exampleInput: p.example_input,
  reverseTemplate: p.reverse_template,
  alternativeUrlTemplates: p.alternative_url_templates,
});

@Controller('api/v1/realm')
export class LinkifiersController {
  constructor(private readonly linkifiers: LinkifiersService) {}

  @Get('linkifiers')
  async list(@CurrentActor() actor: Actor) {
    return { linkifiers: (await this.linkifiers.listLinkifiers(actor)).map(presentLinkifier) };
  }

  @ApiPost('filters')
  @Require('admin')
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: LinkifierDto) {
    return { id: await this.linkifiers.addLinkifier(actor, input(p)) };
  }

  @Patch('filters/:filter_id')
  @Require('admin')
  async update(@CurrentActor() actor: Actor, @Param('filter_id', PathIntPipe) id: number, @ZulipParams() p: LinkifierDto) {
    await this.linkifiers.updateLinkifier(actor, id, input(p));
    return {};
  }

  @Delete('filters/:filter_id')
  @Require('admin')
  async remove(@CurrentActor() actor: Actor, @Param('filter_id', PathIntPipe) id: number) {
    await this.linkifiers.removeLinkifier(actor, id);
    return {};
  }

  @Patch('linkifiers')
  @Require('admin')
  async reorder(@CurrentActor() actor: Actor, @ZulipParams() p: ReorderLinkifiersDto) {
    await this.linkifiers.reorderLinkifiers(actor, p.ordered_linkifier_ids);
    return {};
  }
}
