import { badRequest, DomainError } from '@app/domain/shared';
import { assertValidSubdomain, organizationName } from '@app/domain/realm';
import { type Actor, isValidEmail, type Role } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { AccountRules } from '../../shared/application/account-rules.js';
import { Clock } from '../../shared/application/clock.js';
import { PasswordHasher } from '../../shared/application/password-hasher.js';
import { Secrets } from '../../shared/application/secrets.js';
import { UnitOfWork } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import { EmailDelivery } from '../../email/index.js';
import { AccountService, BootstrapService, UsersService } from '../../users/index.js';
import { AdminQueries, type AdminUserRef, type OrganizationSummary } from './admin.ports.js';

export const unknownOrganization = (subdomain: string) =>
  new DomainError(`No organization with subdomain '${subdomain}'`, 'NONEXISTENT_SUBDOMAIN', 'not_found');
const unknownUser = (email: string) => new DomainError(`No user with email '${email}' in this organization`, 'BAD_REQUEST', 'not_found');

export interface CreatedOrganization {
  id: number;
  subdomain: string;
  name: string;
  url: string;
  ownerEmail: string;
  ownerPassword: string;
}

/**
 * The use cases of the admin command line (Zulip's manage.py commands), acting as the
 * organization's owner through the same services as the HTTP API, so the same rules, events
 * and transactions apply.
 */
@Injectable()
export class AdminService {
  constructor(
    private readonly queries: AdminQueries,
    private readonly bootstrap: BootstrapService,
    private readonly users: UsersService,
    private readonly accounts: AccountService,
    private readonly uow: UnitOfWork,
    private readonly hasher: PasswordHasher,
    private readonly rules: AccountRules,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly config: ServerConfig,
    private readonly delivery: EmailDelivery,
  ) {}

  /** Checks a new organization's subdomain: well-formed, not reserved, not taken. */
  async checkNewSubdomain(subdomain: string): Promise<void> {
    assertValidSubdomain(subdomain);
    if ((await this.queries.organizationBySubdomain(subdomain)) !== null) throw badRequest(`Subdomain '${subdomain}' is already in use`);
  }

  async createOrganization(o: { name: string; subdomain: string; ownerEmail: string; ownerFullName?: string }): Promise<CreatedOrganization> {
    const name = organizationName(o.name);
    if (!isValidEmail(o.ownerEmail)) throw badRequest('Enter a valid email address.');
    await this.checkNewSubdomain(o.subdomain);
    const ownerPassword = this.secrets.password();
    const id = await this.bootstrap.createOrganization({
      stringId: o.subdomain,
      name,
      ownerEmail: o.ownerEmail,
      ownerPassword,
      ownerFullName: o.ownerFullName,
    });
    return { id, subdomain: o.subdomain, name, url: this.config.realmUrl(o.subdomain), ownerEmail: o.ownerEmail, ownerPassword };
  }

  async listOrganizations(): Promise<(OrganizationSummary & { url: string })[]> {
    return (await this.queries.organizations()).map((o) => ({ ...o, url: this.config.realmUrl(o.subdomain) }));
  }

  async organization(subdomain: string): Promise<OrganizationSummary> {
    const org = await this.queries.organizationBySubdomain(subdomain);
    if (org === null) throw unknownOrganization(subdomain);
    return org;
  }

  /** The organization's owner as the acting user, and the user named by `email`. */
  private async target(subdomain: string, email: string): Promise<{ actor: Actor; user: AdminUserRef }> {
    const actor = await this.actingOwner(subdomain);
    if (!isValidEmail(email.trim())) throw badRequest('Enter a valid email address.');
    const user = await this.queries.userByEmail(actor.realmId, email.trim());
    if (user === null) throw unknownUser(email);
    return { actor, user };
  }

  private async actingOwner(subdomain: string): Promise<Actor> {
    const org = await this.organization(subdomain);
    const owner = await this.queries.actingOwner(org.id);
    if (owner === null) throw new DomainError('The organization has no active owner', 'BAD_REQUEST');
    return owner;
  }

  /** POST /users as the owner; the password is generated (and shown once) unless given. */
  async createUser(subdomain: string, u: { email: string; fullName: string; password?: string }): Promise<{ userId: number; email: string; password: string; generated: boolean }> {
    const actor = await this.actingOwner(subdomain);
    const password = u.password ?? this.secrets.password();
    const userId = await this.users.createUser(actor, u.email.trim(), password, u.fullName);
    return { userId, email: u.email.trim(), password, generated: u.password === undefined };
  }

  /** Sets a user's password (Zulip's manage.py changepassword): no old password needed. */
  async changePassword(subdomain: string, email: string, password: string): Promise<{ userId: number }> {
    const { actor, user } = await this.target(subdomain, email);
    if (user.isBot) throw badRequest('Bots have no password');
    if (!this.rules.isStrongPassword(password)) throw badRequest('The password is too weak.');
    const hash = await this.hasher.hash(password);
    await this.uow.run(async (tx) => {
      const realmId = actor.realmId;
      const current = await tx.userSettings.getForUpdate(realmId, user.id);
      if (current === null) throw unknownUser(email);
      if (!(await tx.accounts.replacePasswordHash(realmId, user.id, current.passwordHash, hash))) throw badRequest('The password changed meanwhile; try again');
      await tx.sessions.endForUser(realmId, user.id);
    });
    return { userId: user.id };
  }

  /** POST /users/me/api_key/regenerate on the user's behalf: the old key stops working at once. */
  async resetApiKey(subdomain: string, email: string): Promise<{ userId: number; apiKey: string }> {
    const { actor, user } = await this.target(subdomain, email);
    const apiKey = await this.accounts.regenerateApiKey({ ...actor, userId: user.id, email: user.email, role: user.role, isBot: user.isBot });
    return { userId: user.id, apiKey };
  }

  async deactivateUser(subdomain: string, email: string): Promise<{ userId: number }> {
    const { actor, user } = await this.target(subdomain, email);
    await this.users.deactivateUser(actor, user.id);
    return { userId: user.id };
  }

  async reactivateUser(subdomain: string, email: string): Promise<{ userId: number }> {
    const { actor, user } = await this.target(subdomain, email);
    if (user.isActive) throw badRequest('User is already active');
    await this.users.reactivateUser(actor, user.id);
    return { userId: user.id };
  }

  async changeRole(subdomain: string, email: string, role: Role): Promise<{ userId: number; role: Role }> {
    const { actor, user } = await this.target(subdomain, email);
    await this.users.updateUser(actor, user.id, { role });
    return { userId: user.id, role };
  }

  /**
   * Queues a test email in the outbox; with SMTP_URL set, delivers what is due right away
   * (the server's workers would otherwise) and reports what became of it.
   */
  async sendTestEmail(to: string): Promise<{ id: number; status: string; lastError: string | null; delivered: boolean }> {
    if (!isValidEmail(to)) throw badRequest('Enter a valid email address.');
    const url = this.config.externalUrl;
    await this.uow.run((tx) =>
      tx.emails.send(
        {
          realmId: null,
          kind: 'test_email',
          to,
          subject: 'Test email from the svc server',
          body: `This is a test email from the server at ${url}.\nIf you received it, email delivery works.\n`,
          html: `<p>This is a test email from the server at <a href="${url}">${url}</a>.</p>\n<p>If you received it, email delivery works.</p>`,
        },
        this.clock.now(),
      ),
    );
    if (this.config.emailConfigured) await this.delivery.deliverDue();
    const row = (await this.queries.latestEmail('test_email', to))!;
    return { ...row, delivered: row.status === 'sent' };
  }
}
