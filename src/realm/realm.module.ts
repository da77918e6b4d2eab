import { Global, Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { BootstrapService } from './application/bootstrap.service.js';
import { RealmResolver } from './application/realm-resolver.js';
import { RealmQueries } from './application/realm.ports.js';
import { TypeOrmRealmQueries } from './persistence/typeorm-realm.repository.js';

@Global()
@Module({
  imports: [UsersModule],
  providers: [BootstrapService, RealmResolver, { provide: RealmQueries, useClass: TypeOrmRealmQueries }],
  exports: [RealmQueries, BootstrapService, RealmResolver],
})
export class RealmModule {}
