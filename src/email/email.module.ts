import { Module } from '@nestjs/common';
import { EmailDelivery } from './application/email-delivery.js';
import { EmailOutbox, MailTransport } from './application/email-delivery.ports.js';
import { EmailDeliveryWorker } from './application/email-delivery.worker.js';
import { SmtpMailTransport } from './infrastructure/smtp-mail-transport.js';
import { TypeOrmEmailOutbox } from './persistence/typeorm-email-outbox.js';

/**
 * Email delivery: the rows use cases write to `email_outbox` (the kernel's EmailSender, inside
 * their transactions) are sent over SMTP by EmailDeliveryWorker while SMTP_URL is set.
 */
@Module({
  providers: [
    EmailDelivery,
    EmailDeliveryWorker,
    { provide: EmailOutbox, useClass: TypeOrmEmailOutbox },
    { provide: MailTransport, useClass: SmtpMailTransport },
  ],
  exports: [EmailDelivery],
})
export class EmailModule {}
