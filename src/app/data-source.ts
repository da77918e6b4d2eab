import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { ENTITIES } from './entities.js';

/** The one DataSource definition, used by the server and (through ormconfig.ts) by the TypeORM CLI. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'all',
    synchronize: false,
    poolSize: Number(process.env.DB_POOL_SIZE ?? 10),
    extra: { application_name: 'svc' },
  };
}
