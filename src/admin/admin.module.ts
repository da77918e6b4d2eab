import { Module } from '@nestjs/common';
import { AdminQueries, OrganizationExportSource } from './application/admin.ports.js';
import { AdminService } from './application/admin.service.js';
import { OrganizationExport } from './application/organization-export.js';
import { OrganizationImport } from './application/organization-import.js';
import { TypeOrmAdminQueries } from './persistence/typeorm-admin.queries.js';
import { TypeOrmExportSource } from './persistence/typeorm-export.source.js';

/** The admin command line's use cases (loaded by `svc-admin` only, never by the HTTP server). */
@Module({
  providers: [
    AdminService,
    OrganizationExport,
    OrganizationImport,
    { provide: AdminQueries, useClass: TypeOrmAdminQueries },
    { provide: OrganizationExportSource, useClass: TypeOrmExportSource },
  ],
  exports: [AdminService, OrganizationExport, OrganizationImport],
})
export class AdminModule {}
