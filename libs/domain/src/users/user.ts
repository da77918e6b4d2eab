import { AggregateRoot } from '../shared/aggregate-root.js';
import { badRequest, insufficientPermission } from '../shared/domain-error.js';
import type { Actor } from './actor.js';
import { adminRequired, type BotType, isAdmin, isOwner, ownerRequired, Role } from './role.js';

export interface UserState {
  id: number;
  realmId: number;
  email: string;
  deliveryEmail: string;
  fullName: string;
  role: Role;
  isActive: boolean;
  isBot: boolean;
  botType: BotType | null;
  botOwnerId: number | null;
  isSystemBot: boolean;
  dateJoined: Date;
}

export type UserEvent =
  | { type: 'role_changed'; userId: number; role: Role; previous: Role }
  | { type: 'full_name_changed'; userId: number; fullName: string }
  | { type: 'deactivated'; userId: number }
  | { type: 'reactivated'; userId: number };

export const noSuchUser = () => badRequest('No such user');
export const userIsDeactivated = () => badRequest('User is deactivated');

export interface AccessOptions {
  allowBots: boolean;
  allowDeactivated: boolean;
  /** true: the actor must be able to administer the target (admin, or owner of the bot). */
  forAdmin: boolean;
}

/** Zulip's access_user_by_id, on an already-loaded target (null = not in the organization). */
export function assertCanAccessUser(actor: Actor, target: UserState | null, o: AccessOptions): UserState {
  if (target === null || target.realmId !== actor.realmId) throw noSuchUser();
  if (target.isBot && !o.allowBots) throw noSuchUser();
  if (!target.isActive && !o.allowDeactivated) throw userIsDeactivated();
  if (o.forAdmin && !canAdministerUser(actor, target)) throw insufficientPermission();
  return target;
}

export function canAdministerUser(actor: Actor, target: UserState): boolean {
  if (isAdmin(actor.role)) return true;
  return target.isBot && target.botOwnerId === actor.userId;
}

export class User extends AggregateRoot<UserEvent> {
  private constructor(private state: UserState) {
    super();
  }

  static restore(state: UserState): User {
    return new User({ ...state });
  }

  get id(): number {
    return this.state.id;
  }
  get role(): Role {
    return this.state.role;
  }
  get isActive(): boolean {
    return this.state.isActive;
  }
  snapshot(): Readonly<UserState> {
    return { ...this.state };
  }

  /**
   * PATCH /users/{id} role. `activeHumanOwners` counts active human owners of the
   * organization (including this user when it is one). An unchanged role is a no-op.
   */
  changeRole(actor: Actor, role: Role, activeHumanOwners: number): void {
    const previous = this.state.role;
    if (role === previous) return;
    if ((role === Role.OWNER || previous === Role.OWNER) && !isOwner(actor.role)) throw ownerRequired();
    if (!isAdmin(actor.role)) throw adminRequired();
    if (previous === Role.OWNER && !this.state.isBot && activeHumanOwners <= 1) {
      throw badRequest('The owner permission cannot be removed from the only organization owner.');
    }
    this.state.role = role;
    this.record({ type: 'role_changed', userId: this.state.id, role, previous });
  }

  /** `fullName` has already passed checkFullName. An unchanged name is a no-op. */
  rename(fullName: string): void {
    if (fullName === this.state.fullName) return;
    this.state.fullName = fullName;
    this.record({ type: 'full_name_changed', userId: this.state.id, fullName });
  }

  /** DELETE /users/{id}: an administrator deactivates a human user. */
  deactivateByAdmin(actor: Actor, activeHumanOwners: number): void {
    if (this.state.role === Role.OWNER && !isOwner(actor.role)) throw ownerRequired();
    if (this.state.role === Role.OWNER && activeHumanOwners <= 1) {
      throw badRequest('Cannot deactivate the only organization owner');
    }
    this.deactivate();
  }

  deactivate(): void {
    if (!this.state.isActive) return;
    this.state.isActive = false;
    this.record({ type: 'deactivated', userId: this.state.id });
  }

  /**
   * POST /users/{id}/reactivate. Reactivating an active user is not refused and, as Zulip's
   * do_reactivate_user, still announces the user active: `reactivated` is recorded either way.
   */
  reactivate(): void {
    this.state.isActive = true;
    this.record({ type: 'reactivated', userId: this.state.id });
  }
}
