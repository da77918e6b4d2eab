import { Foundation1763800000000 } from './1763800000000-Foundation.js';
import { Channels1763900000000 } from './1763900000000-Channels.js';
import { UserStatus1764200000000 } from './1764200000000-UserStatus.js';

/** Every migration, oldest first (ESM builds cannot glob-load them). */
export const MIGRATIONS = [Foundation1763800000000, Channels1763900000000, UserStatus1764200000000];
