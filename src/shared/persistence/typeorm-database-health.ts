import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseHealth } from '../application/database-health.js';

@Injectable()
export class TypeOrmDatabaseHealth extends DatabaseHealth {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async isReachable(): Promise<boolean> {
    try {
      await this.ds.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
