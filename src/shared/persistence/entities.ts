import { RealmRow } from '../../realm/persistence/realm.row.js';
import { UserGroupRow } from '../../users/persistence/user-group.row.js';
import { UserRow } from '../../users/persistence/user.row.js';

export const ENTITIES = [RealmRow, UserRow, UserGroupRow];
