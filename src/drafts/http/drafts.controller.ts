import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { PathIntPipe } from '../../shared/http/path-params.js';
import { ApiPost } from '../../shared/http/routes.js';
import { DraftsService } from '../application/drafts.service.js';
import { SavedSnippetsService } from '../application/saved-snippets.service.js';
import { presentDraft, presentSavedSnippet } from '../application/draft.views.js';
import { CreateDraftsDto, CreateSavedSnippetDto, EditDraftDto, EditSavedSnippetDto } from './drafts.dto.js';

@Controller('api/v1/drafts')
export class DraftsController {
  constructor(private readonly drafts: DraftsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    const drafts = await this.drafts.listDrafts(actor);
    return { count: drafts.length, drafts: drafts.map(presentDraft) };
  }

  @ApiPost()
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateDraftsDto) {
    return { ids: await this.drafts.createDrafts(actor, p.drafts) };
  }

  @Patch(':draft_id')
  async edit(@CurrentActor() actor: Actor, @ZulipParams() p: EditDraftDto, @Param('draft_id', PathIntPipe) draftId: number) {
    await this.drafts.editDraft(actor, draftId, p.draft);
    return {};
  }

  @Delete(':draft_id')
  async delete(@CurrentActor() actor: Actor, @Param('draft_id', PathIntPipe) draftId: number) {
    await this.drafts.deleteDraft(actor, draftId);
    return {};
  }
}

@Controller('api/v1/saved_snippets')
export class SavedSnippetsController {
  constructor(private readonly snippets: SavedSnippetsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { saved_snippets: (await this.snippets.listSavedSnippets(actor)).map(presentSavedSnippet) };
  }

  @ApiPost()
  async create(@CurrentActor() actor: Actor, @ZulipParams() p: CreateSavedSnippetDto) {
    return { saved_snippet_id: await this.snippets.createSavedSnippet(actor, p.title, p.content) };
  }

  @Patch(':saved_snippet_id')
  async edit(
    @CurrentActor() actor: Actor,
    @ZulipParams() p: EditSavedSnippetDto,
    @Param('saved_snippet_id', PathIntPipe) snippetId: number,
  ) {
    await this.snippets.editSavedSnippet(actor, snippetId, { title: p.title, content: p.content });
    return {};
  }

  @Delete(':saved_snippet_id')
  async delete(@CurrentActor() actor: Actor, @Param('saved_snippet_id', PathIntPipe) snippetId: number) {
    await this.snippets.deleteSavedSnippet(actor, snippetId);
    return {};
  }
}
