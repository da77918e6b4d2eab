import { RealmRow } from '../realm/persistence/realm.row.js';
import { UserGroupRow } from '../users/persistence/user-group.row.js';
import { UserRow } from '../users/persistence/user.row.js';

/** The TypeORM entity classes (most tables are read and written with plain SQL). */
export const ENTITIES = [RealmRow, UserRow, UserGroupRow];
