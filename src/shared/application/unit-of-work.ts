import type { ChannelRepository } from '../../channels/application/channel.ports.js';
import type { LinkifierRepository, PlaygroundRepository, RealmRepository } from '../../realm/application/realm.ports.js';
import type { UserGroupRepository, UserRepository } from '../../users/application/user.ports.js';
import type { ClientEvent } from './client-event.js';

/** The repositories of one transaction, plus the events to publish once it commits. */
export interface Tx {
  readonly users: UserRepository;
  readonly groups: UserGroupRepository;
  readonly realms: RealmRepository;
  readonly channels: ChannelRepository;
  readonly linkifiers: LinkifierRepository;
  readonly playgrounds: PlaygroundRepository;
  afterCommit(events: readonly ClientEvent[]): void;
}

/** One transaction per use case; events reach clients only after COMMIT. */
export abstract class UnitOfWork {
  abstract run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}
