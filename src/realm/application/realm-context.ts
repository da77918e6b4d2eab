import { Injectable } from '@nestjs/common';

/**
 * The organization this server hosts. A server process serves one organization (the one
 * bootstrap created); every table still carries realm_id so queries stay scoped.
 */
@Injectable()
export class RealmContext {
  private realmId: number | null = null;

  get id(): number {
    if (this.realmId === null) throw new Error('the organization has not been loaded yet');
    return this.realmId;
  }

  set(realmId: number): void {
    this.realmId = realmId;
  }
}
