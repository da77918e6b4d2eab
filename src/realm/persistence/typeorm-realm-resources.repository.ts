import type { LinkifierDefinition, PlaygroundDefinition } from '@app/domain/realm';
import type { EntityManager } from 'typeorm';
import {
  type LinkifierRecord,
  LinkifierRepository,
  type PlaygroundRecord,
  PlaygroundRepository,
} from '../application/realm.ports.js';

/** A linkifiers row (LINKIFIER_COLUMNS). */
export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string[];
}

export const LINKIFIER_COLUMNS = `id, pattern, url_template, example_input, reverse_template, alternative_url_templates`;

export function toLinkifier(r: LinkifierRow): LinkifierRecord {
  return {
    id: r.id,
    pattern: r.pattern,
    urlTemplate: r.url_template,
    exampleInput: r.example_input,
    reverseTemplate: r.reverse_template,
    alternativeUrlTemplates: r.alternative_url_templates,
  };
}

export const PLAYGROUND_COLUMNS = `id, name, pygments_language, url_template`;

/** A code_playgrounds row (PLAYGROUND_COLUMNS). */
export interface PlaygroundRow {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export function toPlayground(r: PlaygroundRow): PlaygroundRecord {
  return { id: r.id, name: r.name, pygmentsLanguage: r.pygments_language, urlTemplate: r.url_template };
}

export class TypeOrmLinkifierRepository extends LinkifierRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async lockIds(realmId: number): Promise<number[]> {
    const rows: { id: number }[] = await this.em.query(
      `SELECT id FROM linkifiers WHERE realm_id = $1 ORDER BY id FOR UPDATE`,
      [realmId],
    );
    return rows.map((r) => r.id);
  }

  async find(realmId: number, linkifierId: number): Promise<LinkifierRecord | null> {
    const rows: LinkifierRow[] = await this.em.query(
      `SELECT ${LINKIFIER_COLUMNS} FROM linkifiers WHERE realm_id = $1 AND id = $2 FOR UPDATE`,
      [realmId, linkifierId],
    );
    return rows.length > 0 ? toLinkifier(rows[0]) : null;
  }

  async patternTaken(realmId: number, pattern: string, exceptId?: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM linkifiers WHERE realm_id = $1 AND md5(pattern) = md5($2) AND pattern = $2 AND id <> $3`,
      [realmId, pattern, exceptId ?? 0],
    );
    return rows.length > 0;
  }

  async insert(realmId: number, l: LinkifierDefinition): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO linkifiers (realm_id, pattern, url_template, example_input, reverse_template, alternative_url_templates, "order")
       VALUES ($1, $2, $3, $4, $5, $6::text[],
               (SELECT COALESCE(max("order") + 1, 0) FROM linkifiers WHERE realm_id = $1))
       RETURNING id`,
      [realmId, l.pattern, l.urlTemplate, l.exampleInput, l.reverseTemplate, l.alternativeUrlTemplates],
    );
    return row.id;
  }

  async update(realmId: number, linkifierId: number, l: LinkifierDefinition): Promise<void> {
    await this.em.query(
      `UPDATE linkifiers SET pattern = $3, url_template = $4, example_input = $5, reverse_template = $6,
         alternative_url_templates = $7::text[]
       WHERE realm_id = $1 AND id = $2`,
      [realmId, linkifierId, l.pattern, l.urlTemplate, l.exampleInput, l.reverseTemplate, l.alternativeUrlTemplates],
    );
  }

  async remove(realmId: number, linkifierId: number): Promise<void> {
    await this.em.query(`DELETE FROM linkifiers WHERE realm_id = $1 AND id = $2`, [realmId, linkifierId]);
  }

  async setOrder(realmId: number, orderedIds: readonly number[]): Promise<void> {
    await this.em.query(
      `UPDATE linkifiers l SET "order" = x.ord - 1
       FROM unnest($2::int[]) WITH ORDINALITY AS x(id, ord)
       WHERE l.realm_id = $1 AND l.id = x.id`,
      [realmId, orderedIds],
    );
  }

  async list(realmId: number): Promise<LinkifierRecord[]> {
    const rows: LinkifierRow[] = await this.em.query(
      `SELECT ${LINKIFIER_COLUMNS} FROM linkifiers WHERE realm_id = $1 ORDER BY "order", id`,
      [realmId],
    );
    return rows.map(toLinkifier);
  }
}

export class TypeOrmPlaygroundRepository extends PlaygroundRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async taken(realmId: number, pygmentsLanguage: string, name: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(
      `SELECT 1 FROM code_playgrounds WHERE realm_id = $1 AND pygments_language = $2 AND md5(name) = md5($3) AND name = $3`,
      [realmId, pygmentsLanguage, name],
    );
    return rows.length > 0;
  }

  async insert(realmId: number, p: PlaygroundDefinition): Promise<number> {
    const [row]: { id: number }[] = await this.em.query(
      `INSERT INTO code_playgrounds (realm_id, name, pygments_language, url_template) VALUES ($1, $2, $3, $4) RETURNING id`,
      [realmId, p.name, p.pygmentsLanguage, p.urlTemplate],
    );
    return row.id;
  }

  async find(realmId: number, playgroundId: number): Promise<PlaygroundRecord | null> {
    const rows: PlaygroundRow[] = await this.em.query(
      `SELECT ${PLAYGROUND_COLUMNS} FROM code_playgrounds WHERE realm_id = $1 AND id = $2 FOR UPDATE`,
      [realmId, playgroundId],
    );
    return rows.length > 0 ? toPlayground(rows[0]) : null;
  }

  async remove(realmId: number, playgroundId: number): Promise<void> {
    await this.em.query(`DELETE FROM code_playgrounds WHERE realm_id = $1 AND id = $2`, [realmId, playgroundId]);
  }

  async list(realmId: number): Promise<PlaygroundRecord[]> {
    const rows: PlaygroundRow[] = await this.em.query(`SELECT ${PLAYGROUND_COLUMNS} FROM code_playgrounds WHERE realm_id = $1 ORDER BY id`, [realmId]);
    return rows.map(toPlayground);
  }
}
