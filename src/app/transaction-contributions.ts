import { adminTransaction } from '../admin/persistence/admin.transaction.js';
import { channelsTransaction } from '../channels/persistence/channels.transaction.js';
import { draftsTransaction } from '../drafts/persistence/drafts.transaction.js';
import { emojiTransaction } from '../emoji/persistence/emoji.transaction.js';
import { exportsTransaction } from '../exports/persistence/exports.transaction.js';
import { invitationsTransaction } from '../invitations/persistence/invitations.transaction.js';
import { messagesTransaction } from '../messages/persistence/messages.transaction.js';
import { presenceTransaction } from '../presence/persistence/presence.transaction.js';
import { pushTransaction } from '../push/persistence/push.transaction.js';
import { realmTransaction } from '../realm/persistence/realm.transaction.js';
import type { TxRepositories } from '../shared/application/unit-of-work.js';
import { kernelTransaction } from '../shared/persistence/kernel.transaction.js';
import { usersTransaction } from '../users/persistence/users.transaction.js';

/** Every context's repositories and constraint errors, merged into each transaction. */
export const TRANSACTION_CONTRIBUTIONS = [
  kernelTransaction,
  usersTransaction,
  realmTransaction,
  channelsTransaction,
  messagesTransaction,
  draftsTransaction,
  invitationsTransaction,
  emojiTransaction,
  pushTransaction,
  presenceTransaction,
  exportsTransaction,
  adminTransaction,
] as const;

type Contributed = UnionToIntersection<ReturnType<(typeof TRANSACTION_CONTRIBUTIONS)[number]['repositories']>>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Fails to compile when a context declares a repository on `Tx` that no contribution builds. */
export type MissingRepositories = Exclude<keyof TxRepositories, keyof Contributed>;
const everyRepositoryIsBuilt: [MissingRepositories] extends [never] ? true : MissingRepositories = true;
void everyRepositoryIsBuilt;
