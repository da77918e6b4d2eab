import { access, open as openFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { Role } from '@app/domain/users';
import type { OrganizationArchiver } from '../../exports/index.js';
import type { AdminService } from '../application/admin.service.js';
import type { OrganizationArchiveImport } from '../application/organization-archive-import.js';
import type { OrganizationExport } from '../application/organization-export.js';
import type { OrganizationImport } from '../application/organization-import.js';
import { bufferedWriter, CliFailure, inputLines, openOutput, readNewPassword } from './cli-io.js';

/** What the commands use, opened (database, Nest application context) only once a command runs. */
export interface AdminServices {
  admin: AdminService;
  exporter: OrganizationExport;
  importer: OrganizationImport;
  archiveImporter: OrganizationArchiveImport;
  archiver: OrganizationArchiver;
}

export type OpenServices = () => Promise<AdminServices>;

/** Role names as Zulip's documentation and `change-role` spell them. */
export const ROLE_NAMES: Record<string, Role> = {
  owner: Role.OWNER,
  administrator: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};
const roleName = (role: number) => Object.entries(ROLE_NAMES).find(([, r]) => r === role)?.[0] ?? String(role);

interface Common {
  json?: boolean;
  org: string;
}

/** Prints a result: `{"result":"success",…}` with --json, else the human lines. */
function report(o: Common, data: Record<string, unknown>, lines: string[]): void {
  process.stdout.write(o.json ? `${JSON.stringify({ result: 'success', ...data })}\n` : `${lines.join('\n')}\n`);
}

const orgOption = () => new Option('--org <subdomain>', 'the organization\'s subdomain ("" is the root organization)').default('');
const jsonOption = () => new Option('--json', 'print the result as JSON');

/** A command with --json; `user` commands also take --org and the user's email. */
function command(program: Command, name: string, description: string): Command {
  return program.command(name).description(description).addOption(jsonOption());
}

function organizationCommands(program: Command, open: OpenServices): void {
  command(program, 'create-organization', 'create an organization with its owner; prints the owner\'s one-time password')
    .requiredOption('--name <name>', 'the organization\'s name')
    .requiredOption('--subdomain <subdomain>', 'its subdomain: <subdomain>.<host of EXTERNAL_URL>')
    .requiredOption('--owner-email <email>', 'the owner\'s email address')
    .option('--owner-name <name>', 'the owner\'s full name', 'Owner')
    .action(async (o: Common & { name: string; subdomain: string; ownerEmail: string; ownerName: string }) => {
      const { admin } = await open();
      const org = await admin.createOrganization({ name: o.name, subdomain: o.subdomain, ownerEmail: o.ownerEmail, ownerFullName: o.ownerName });
      const organization = { id: org.id, subdomain: org.subdomain, name: org.name, url: org.url, owner_email: org.ownerEmail, owner_password: org.ownerPassword };
      report(o, { organization }, [
        `Created the organization "${org.name}" (id ${org.id}) at ${org.url}`,
        `Owner: ${org.ownerEmail}`,
        `Owner password (shown only once): ${org.ownerPassword}`,
      ]);
    });

  command(program, 'list-organizations', 'list the organizations').action(async (o: Common) => {
    const orgs = await (await open()).admin.listOrganizations();
    report(
      o,
      { organizations: orgs.map((g) => ({ id: g.id, subdomain: g.subdomain, name: g.name, url: g.url, active_users: g.activeHumans, deactivated: g.deactivated, date_created: g.dateCreated })) },
      orgs.map((g) => `${g.id}\t${g.subdomain === '' ? '(root)' : g.subdomain}\t${g.name}\t${g.url}\t${g.activeHumans} active users${g.deactivated ? '\tdeactivated' : ''}`),
    );
  });
}

function accountCommands(program: Command, open: OpenServices): void {
  command(program, 'create-user', 'create a user (a member); prints a one-time password unless --password-stdin')
    .argument('<email>', 'the new user\'s email address')
    .requiredOption('--full-name <name>', 'the new user\'s full name')
    .option('--password-stdin', 'read the password from the first line of stdin instead of generating one')
    .addOption(orgOption())
    .action(async (email: string, o: Common & { fullName: string; passwordStdin?: boolean }) => {
      const password = o.passwordStdin ? await readNewPassword() : undefined;
      const r = await (await open()).admin.createUser(o.org, { email, fullName: o.fullName, password });
      report(o, { user_id: r.userId, email: r.email, ...(r.generated ? { password: r.password } : {}) }, [
        `Created the user ${r.email} (id ${r.userId})`,
        ...(r.generated ? [`Password (shown only once): ${r.password}`] : []),
      ]);
    });

  command(program, 'change-password', 'set a user\'s password: typed twice on a terminal, else the first line of stdin')
    .argument('<email>', 'the user\'s email address')
    .addOption(orgOption())
    .action(async (email: string, o: Common) => {
      const password = await readNewPassword();
      const r = await (await open()).admin.changePassword(o.org, email, password);
      report(o, { user_id: r.userId }, [`Changed the password of ${email}`]);
    });

  command(program, 'reset-api-key', 'give a user (or bot) a new API key; the old one stops working at once')
    .argument('<email>', 'the user\'s email address')
    .addOption(orgOption())
    .action(async (email: string, o: Common) => {
      const r = await (await open()).admin.resetApiKey(o.org, email);
      report(o, { user_id: r.userId, api_key: r.apiKey }, [`New API key of ${email}: ${r.apiKey}`]);
    });
}

function membershipCommands(program: Command, open: OpenServices): void {
  command(program, 'deactivate-user', 'deactivate a user (and the bots they own)')
    .argument('<email>', 'the user\'s email address')
    .addOption(orgOption())
    .action(async (email: string, o: Common) => {
      const r = await (await open()).admin.deactivateUser(o.org, email);
      report(o, { user_id: r.userId }, [`Deactivated ${email}`]);
    });

  command(program, 'reactivate-user', 'reactivate a deactivated user')
    .argument('<email>', 'the user\'s email address')
    .addOption(orgOption())
    .action(async (email: string, o: Common) => {
      const r = await (await open()).admin.reactivateUser(o.org, email);
      report(o, { user_id: r.userId }, [`Reactivated ${email}`]);
    });

  command(program, 'change-role', 'change a user\'s role')
    .argument('<email>', 'the user\'s email address')
    .addArgument(new Argument('<role>', 'the new role').choices(Object.keys(ROLE_NAMES)))
    .addOption(orgOption())
    .action(async (email: string, role: string, o: Common) => {
      const r = await (await open()).admin.changeRole(o.org, email, ROLE_NAMES[role]);
      report(o, { user_id: r.userId, role: roleName(r.role) }, [`${email} is now ${roleName(r.role)}`]);
    });

  command(program, 'send-test-email', 'queue a test email; with SMTP_URL set, deliver it now and report the answer')
    .argument('<to>', 'the address to send it to')
    .action(async (to: string, o: Common) => {
      const r = await (await open()).admin.sendTestEmail(to);
      if (r.status === 'failed') throw new CliFailure(`the email (outbox id ${r.id}) failed: ${r.lastError ?? 'no answer'}`);
      report(o, { outbox_id: r.id, status: r.status, delivered: r.delivered, ...(r.lastError ? { last_error: r.lastError } : {}) }, [
        r.delivered
          ? `Sent the test email to ${to} (outbox id ${r.id})`
          : `Queued the test email to ${to} (outbox id ${r.id}, ${r.status}${r.lastError ? `: ${r.lastError}` : ''}); ${r.status === 'pending' ? 'a server with SMTP_URL set delivers it' : ''}`,
      ]);
    });
}

function exportCommands(program: Command, open: OpenServices): void {
  command(program, 'export-organization', 'write an organization\'s users, channels, subscriptions and messages as JSON (streamed)')
    .addOption(orgOption())
    .option('--output <file>', 'where to write it ("-": stdout)', '-')
    .addOption(new Option('--batch-size <n>', 'rows read per query').default(1000).argParser((v) => positiveInt(v)))
    .option('--archive', 'write the organization archive (.tar.gz: every table, uploads and custom emoji) to --output instead')
    .action(async (o: Common & { output: string; batchSize: number; archive?: boolean }) => {
      if (o.archive) return exportArchive(open, o);
      const { exporter } = await open();
      const dest = await openOutput(o.output);
      const writer = bufferedWriter(dest.out);
      const counts = await exporter.export(o.org, writer.write, o.batchSize);
      await writer.flush();
      await dest.close();
      const summary = o.json ? `${JSON.stringify({ result: 'success', exported: counts })}\n` : `Exported ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}\n`;
      (o.output === '-' ? process.stderr : process.stdout).write(summary);
    });

  command(program, 'import-organization', 'create a new organization from an export or an organization archive .tar.gz (ids remapped; users get no password)')
    .argument('<file>', 'the export ("-": stdin)')
    .requiredOption('--subdomain <subdomain>', 'the new organization\'s subdomain')
    .option('--name <name>', 'its name (default: the exported organization\'s)')
    .action(async (file: string, o: Common & { subdomain: string; name?: string }) => {
      if (file !== '-') await access(file).catch(() => Promise.reject(new CliFailure(`cannot read ${file}`)));
      if (file !== '-' && (await isGzip(file))) return importArchive(open, file, o);
      const { importer } = await open();
      const r = await importer.import(inputLines(file), { subdomain: o.subdomain, name: o.name });
      report(o, { organization: { id: r.id, subdomain: r.subdomain, url: r.url, owner_email: r.ownerEmail, owner_password: r.ownerPassword }, imported: r.imported, skipped: r.skipped }, [
        `Imported the organization (id ${r.id}) at ${r.url}: ${Object.entries(r.imported).map(([k, n]) => `${n} ${k}`).join(', ')}${r.skipped > 0 ? `; skipped ${r.skipped}` : ''}`,
        `Owner: ${r.ownerEmail}`,
        `Owner password (shown only once): ${r.ownerPassword}`,
      ]);
    });
}

/** A gzip file (an organization archive) rather than the JSON export. */
async function isGzip(file: string): Promise<boolean> {
  const handle = await openFile(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

async function exportArchive(open: OpenServices, o: Common & { output: string }): Promise<void> {
  if (o.output === '-') throw new CliFailure('--archive needs --output <file.tar.gz>');
  const { admin, archiver } = await open();
  const org = await admin.organization(o.org);
  const { size, counts } = await archiver.write({ realmId: org.id, type: 'full_without_consent', target: resolve(o.output), now: new Date() });
  report(o, { exported: counts, size }, [`Exported ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')} to ${o.output} (${size} bytes)`]);
}

async function importArchive(open: OpenServices, file: string, o: Common & { subdomain: string; name?: string }): Promise<void> {
  const r = await (await open()).archiveImporter.import(resolve(file), { subdomain: o.subdomain, name: o.name });
  report(o, { organization: { id: r.id, subdomain: r.subdomain, url: r.url, owner_email: r.ownerEmail, owner_password: r.ownerPassword }, imported: r.imported, skipped: r.skipped }, [
    `Imported the organization (id ${r.id}) at ${r.url}: ${Object.entries(r.imported).map(([k, n]) => `${n} ${k}`).join(', ')}${r.skipped > 0 ? `; skipped ${r.skipped}` : ''}`,
    `Owner: ${r.ownerEmail}`,
    `Owner password (shown only once): ${r.ownerPassword}`,
  ]);
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('not a positive integer.');
  return n;
}

/** `svc-admin`: every command; `open` reaches the database only once a command runs (so --help needs none). */
export function adminProgram(open: OpenServices): Command {
  const program = new Command('svc-admin')
    .description('Administer the chat server directly through its database (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR)')
    .showHelpAfterError()
    .exitOverride();
  organizationCommands(program, open);
  accountCommands(program, open);
  membershipCommands(program, open);
  exportCommands(program, open);
  for (const c of program.commands) c.exitOverride().showHelpAfterError();
  return program;
}
