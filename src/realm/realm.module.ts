import { Global, Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { BootstrapService } from './application/bootstrap.service.js';
import { RealmQueries } from './application/realm.ports.js';
import { TypeOrmRealmQueries } from './persistence/typeorm-realm.repository.js';

@Global()
@Module({
  imports: [UsersModule],
  providers: [BootstrapService, { provide: RealmQueries, useClass: TypeOrmRealmQueries }],
  exports: [RealmQueries, BootstrapService],
})
export class RealmModule {}
