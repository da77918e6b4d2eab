import { Module } from '@nestjs/common';
import { InvitationQueries } from './application/invitation.ports.js';
import { InvitationsService } from './application/invitations.service.js';
import { InvitationsController } from './http/invitations.controller.js';
import { TypeOrmInvitationQueries } from './persistence/typeorm-invitation.repository.js';

/** Email invitations and reusable invitation links (spec 21). */
@Module({
  controllers: [InvitationsController],
  providers: [InvitationsService, { provide: InvitationQueries, useClass: TypeOrmInvitationQueries }],
})
export class InvitationsModule {}
