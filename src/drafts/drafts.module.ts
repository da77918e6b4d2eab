import { Module } from '@nestjs/common';
import { DraftQueries } from './application/draft.ports.js';
import { DraftsService } from './application/drafts.service.js';
import { SavedSnippetsService } from './application/saved-snippets.service.js';
import { DraftsController, SavedSnippetsController } from './http/drafts.controller.js';
import { TypeOrmDraftQueries } from './persistence/typeorm-draft.repository.js';

/** Drafts and saved snippets: a user's own texts, never visible to anyone else. */
@Module({
  controllers: [DraftsController, SavedSnippetsController],
  providers: [DraftsService, SavedSnippetsService, { provide: DraftQueries, useClass: TypeOrmDraftQueries }],
})
export class DraftsModule {}
