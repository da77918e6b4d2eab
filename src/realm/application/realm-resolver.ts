import { DomainError } from '@app/domain/shared';
import { Injectable } from '@nestjs/common';
import { ServerConfig } from '../../shared/config/server-config.js';
import { RealmQueries } from './realm.ports.js';

/**
 * Which organization a request is for, from its Host header, as Zulip does with subdomains:
 * `<string_id>.<host of EXTERNAL_URL>` is that organization, any other host the root one
 * (string_id ""), which bootstrap creates. Organizations are never deleted, so ids are cached.
 */
@Injectable()
export class RealmResolver {
  private readonly ids = new Map<string, number>();
  private baseHost: string | undefined;

  constructor(
    private readonly realms: RealmQueries,
    private readonly config: ServerConfig,
  ) {}

  stringIdFor(host: string | undefined): string {
    const base = (this.baseHost ??= new URL(this.config.externalUrl).host.toLowerCase());
    const h = (host ?? '').toLowerCase();
    if (h === base) return '';
    if (h.endsWith(`.${base}`)) {
      const sub = h.slice(0, -(base.length + 1));
      if (sub !== '' && !sub.includes('.')) return sub;
    }
    return '';
  }

  async resolve(host: string | undefined): Promise<number> {
    const stringId = this.stringIdFor(host);
    let id = this.ids.get(stringId);
    if (id === undefined) {
      const found = await this.realms.idByStringId(stringId);
      if (found === null) throw new DomainError('Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 'not_found');
      id = found;
      this.ids.set(stringId, id);
    }
    return id;
  }
}
