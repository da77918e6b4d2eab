import { Module } from '@nestjs/common';
import { RealmExportRunner } from './application/realm-export.runner.js';
import { RealmExportWorker } from './application/realm-export.worker.js';
import { RealmExportsService } from './application/realm-exports.service.js';
import { ArchiveReader, ExportFiles, OrganizationArchiver, RealmExportQueries } from './application/realm-exports.ports.js';
import { RealmExportsController } from './http/realm-exports.controller.js';
import { LocalArchiveFiles } from './infrastructure/archive-files.js';
import { TypeOrmOrganizationArchiver } from './persistence/typeorm-organization-archiver.js';
import { TypeOrmRealmExportQueries } from './persistence/typeorm-realm-export.queries.js';

/**
 * Organization data exports: /export/realm for administrators, the export worker that writes
 * the archives (RealmExportWorker, every server process), and the archive reader the admin
 * command line's import uses.
 */
@Module({
  controllers: [RealmExportsController],
  providers: [
    RealmExportsService,
    RealmExportRunner,
    RealmExportWorker,
    LocalArchiveFiles,
    { provide: ExportFiles, useExisting: LocalArchiveFiles },
    { provide: ArchiveReader, useExisting: LocalArchiveFiles },
    { provide: OrganizationArchiver, useClass: TypeOrmOrganizationArchiver },
    { provide: RealmExportQueries, useClass: TypeOrmRealmExportQueries },
  ],
  exports: [ArchiveReader, OrganizationArchiver],
})
export class ExportsModule {}
