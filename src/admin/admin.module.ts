import { Module } from '@nestjs/common';
import { AdminQueries, OrganizationExportSource } from './application/admin.ports.js';
import { AdminService } from './application/admin.service.js';
import { ImportedFiles } from './application/archive-import.ports.js';
import { OrganizationArchiveImport } from './application/organization-archive-import.js';
import { OrganizationExport } from './application/organization-export.js';
import { OrganizationImport } from './application/organization-import.js';
import { LocalImportedFiles } from './persistence/local-imported-files.js';
import { TypeOrmAdminQueries } from './persistence/typeorm-admin.queries.js';
import { TypeOrmExportSource } from './persistence/typeorm-export.source.js';

/** The admin command line's use cases (loaded by `svc-admin` only, never by the HTTP server). */
@Module({
  providers: [
    AdminService,
    OrganizationExport,
    OrganizationImport,
    OrganizationArchiveImport,
    { provide: AdminQueries, useClass: TypeOrmAdminQueries },
    { provide: OrganizationExportSource, useClass: TypeOrmExportSource },
    { provide: ImportedFiles, useClass: LocalImportedFiles },
  ],
  exports: [AdminService, OrganizationExport, OrganizationImport, OrganizationArchiveImport],
})
export class AdminModule {}
