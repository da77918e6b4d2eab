import { Foundation1763800000000 } from './1763800000000-Foundation.js';
import { Channels1763900000000 } from './1763900000000-Channels.js';
import { RealmResources1764100000000 } from './1764100000000-RealmResources.js';

/** Every migration, oldest first (ESM builds cannot glob-load them). */
export const MIGRATIONS = [Foundation1763800000000, Channels1763900000000, RealmResources1764100000000];
