import { Module } from '@nestjs/common';
import { InvitationQueries } from './application/invitation.ports.js';
import { InvitationsService } from './application/invitations.service.js';
import { InvitationsController } from './http/invitations.controller.js';
import { SignupService } from './application/signup.service.js';
import { SignupController } from './http/signup.controller.js';
import { TypeOrmInvitationQueries } from './persistence/typeorm-invitation.repository.js';

/** Email invitations and reusable invitation links (spec 21). */
@Module({
  controllers: [InvitationsController, SignupController],
  providers: [InvitationsService, SignupService, { provide: InvitationQueries, useClass: TypeOrmInvitationQueries }],
})
export class InvitationsModule {}
