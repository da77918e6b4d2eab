import type { NavigationView } from '@app/domain/users';
import type { EntityManager } from 'typeorm';
import { NavigationViewRepository } from '../application/navigation-views.service.js';

interface NavigationViewRow {
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

const toView = (r: NavigationViewRow): NavigationView => ({ fragment: r.fragment, isPinned: r.is_pinned, name: r.name });

export class TypeOrmNavigationViewRepository extends NavigationViewRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async list(userId: number): Promise<NavigationView[]> {
    const rows: NavigationViewRow[] = await this.em.query(`SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = $1 ORDER BY id`, [userId]);
    return rows.map(toView);
  }

  async fragmentTaken(userId: number, fragment: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM navigation_views WHERE user_id = $1 AND fragment = $2`, [userId, fragment]);
    return rows.length > 0;
  }

  async nameTaken(userId: number, name: string): Promise<boolean> {
    const rows: unknown[] = await this.em.query(`SELECT 1 FROM navigation_views WHERE user_id = $1 AND name = $2`, [userId, name]);
    return rows.length > 0;
  }

  async lock(userId: number, fragment: string): Promise<NavigationView | null> {
    const rows: NavigationViewRow[] = await this.em.query(
      `SELECT fragment, is_pinned, name FROM navigation_views WHERE user_id = $1 AND fragment = $2 FOR UPDATE`,
      [userId, fragment],
    );
    return rows.length > 0 ? toView(rows[0]) : null;
  }

  async insert(userId: number, view: NavigationView): Promise<void> {
    await this.em.query(`INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES ($1, $2, $3, $4)`, [userId, view.fragment, view.isPinned, view.name]);
  }

  async update(userId: number, fragment: string, changes: { name: string | null; isPinned: boolean | null }): Promise<void> {
    await this.em.query(
      `UPDATE navigation_views SET name = coalesce($3, name), is_pinned = coalesce($4, is_pinned) WHERE user_id = $1 AND fragment = $2`,
      [userId, fragment, changes.name, changes.isPinned],
    );
  }

  async remove(userId: number, fragment: string): Promise<void> {
    await this.em.query(`DELETE FROM navigation_views WHERE user_id = $1 AND fragment = $2`, [userId, fragment]);
  }
}
