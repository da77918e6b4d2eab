import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/app/data-source.js';

/** The TypeORM CLI's DataSource (`npm run migration:run`); the server builds its own from the same options. */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://localhost/svc'));
