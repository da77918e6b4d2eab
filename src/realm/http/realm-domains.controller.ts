import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor, Require } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { RealmDomainsService } from '../application/realm-domains.service.js';
import { ChangeDomainDto, CreateDomainDto } from './realm-resources.dto.js';
import { presentDomain } from '../application/realm-resources.views.js';

@Controller('api/v1/realm/domains')
export class RealmDomainsController {
  constructor(private readonly domains: RealmDomainsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { domains: (await this.domains.listDomains(actor)).map(presentDomain) };
  }

  @ApiPost()
  @Require('owner')
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateDomainDto) {
    const added = await this.domains.addDomain(actor, p.domain, p.allow_subdomains);
    return { new_domain: [added.id, added.domain] };
  }

  @Patch(':domain')
  @Require('owner')
  async change(@CurrentActor() actor: Actor, @Param('domain') domain: string, @ZulipParams() p: ChangeDomainDto) {
    await this.domains.changeDomain(actor, domain, p.allow_subdomains);
    return {};
  }

  @Delete(':domain')
  @Require('owner')
  async remove(@CurrentActor() actor: Actor, @Param('domain') domain: string) {
    await this.domains.removeDomain(actor, domain);
    return {};
  }
}
