import { Injectable } from '@nestjs/common';
import { Clock } from '../../shared/application/clock.js';
import { AdminService } from './admin.service.js';
import { type ExportSection, OrganizationExportSource } from './admin.ports.js';

export const EXPORT_FORMAT = 'svc-organization-export';
export const EXPORT_VERSION = 1;
const SECTIONS: readonly ExportSection[] = ['users', 'channels', 'subscriptions', 'messages'];

/**
 * `export-organization`: one JSON document, written piece by piece as the rows are read in
 * batches, so memory does not grow with the organization. Its layout is fixed: the header on
 * the first line, then each section's name on a line of its own and one record per line, so
 * `import-organization` can read it back line by line (any JSON parser reads it whole).
 *
 *     {"format":"svc-organization-export","version":1,"exported_at":"…","organization":{…},
 *     "users":[
 *     {…},
 *     {…}
 *     ],
 *     "channels":[
 *     …
 *     ]}
 */
@Injectable()
export class OrganizationExport {
  constructor(
    private readonly admin: AdminService,
    private readonly source: OrganizationExportSource,
    private readonly clock: Clock,
  ) {}

  /** Writes the export through `write` (which should wait for the destination to drain); returns the counts. */
  async export(subdomain: string, write: (chunk: string) => Promise<void>, batchSize = 1000): Promise<Record<ExportSection, number>> {
    const org = await this.admin.organization(subdomain);
    const header = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: this.clock.now().toISOString(),
      organization: { id: org.id, subdomain: org.subdomain, name: org.name, date_created: org.dateCreated.toISOString() },
    };
    const counts: Record<ExportSection, number> = { users: 0, channels: 0, subscriptions: 0, messages: 0 };
    await write(`${JSON.stringify(header).slice(0, -1)},\n`);
    let open: ExportSection | null = null;
    for await (const { section, row } of this.source.records(org.id, batchSize)) {
      if (section !== open) {
        await this.openSection(section, open, write);
        open = section;
      } else {
        await write(',\n');
      }
      await write(JSON.stringify(row));
      counts[section] += 1;
    }
    // Sections with no rows at all still appear, empty.
    for (const s of SECTIONS.slice(open === null ? 0 : SECTIONS.indexOf(open) + 1)) {
      await this.openSection(s, open, write);
      open = s;
    }
    await write('\n]}\n');
    return counts;
  }

  private async openSection(section: ExportSection, previous: ExportSection | null, write: (chunk: string) => Promise<void>): Promise<void> {
    await write(`${previous === null ? '' : '\n],\n'}${JSON.stringify(section)}:[\n`);
  }
}
