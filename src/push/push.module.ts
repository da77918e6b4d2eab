import { Module } from '@nestjs/common';
import { PushRegistrationPoller } from './application/push-registration-poller.js';
import { PushRegistrationRunner } from './application/push-registration-runner.js';
import { PushDevicesService } from './application/push-devices.service.js';
import { PushCipher, PushQueries, PushRelay } from './application/push.ports.js';
import { PushController } from './http/push.controller.js';
import { HttpPushRelay } from './infrastructure/http-push-relay.js';
import { SecretboxPushCipher } from './infrastructure/secretbox-push-cipher.js';
import { TypeOrmPushQueries } from './persistence/typeorm-push.repository.js';

/** Mobile devices, legacy APNs tokens and E2EE push registrations with the push relay. */
@Module({
  controllers: [PushController],
  providers: [
    PushDevicesService,
    PushRegistrationRunner,
    PushRegistrationPoller,
    { provide: PushQueries, useClass: TypeOrmPushQueries },
    { provide: PushRelay, useClass: HttpPushRelay },
    { provide: PushCipher, useClass: SecretboxPushCipher },
  ],
})
export class PushModule {}
