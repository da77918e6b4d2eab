import { domainAlreadyAdded, uniqueTogetherMessage, validationFailure } from '@app/domain/realm';
import type { TransactionContribution } from '../../shared/persistence/transaction-contribution.js';
import { TypeOrmLinkifierRepository, TypeOrmPlaygroundRepository } from './typeorm-realm-resources.repository.js';
import { TypeOrmRealmRepository } from './typeorm-realm.repository.js';
import { TypeOrmRealmLifecycleRepository } from './typeorm-realm-lifecycle.repository.js';

/** Django's unique_together error, as Zulip reports a duplicate linkifier or playground. */
const uniqueTogether = (model: string, fields: string[]) => () => {
  const clash = uniqueTogetherMessage(model, fields);
  return validationFailure(clash, { __all__: [clash] });
};

export const realmTransaction: TransactionContribution<'realms' | 'linkifiers' | 'playgrounds' | 'realmLifecycle'> = {
  repositories: (em) => ({
    realms: new TypeOrmRealmRepository(em),
    linkifiers: new TypeOrmLinkifierRepository(em),
    playgrounds: new TypeOrmPlaygroundRepository(em),
    realmLifecycle: new TypeOrmRealmLifecycleRepository(em),
  }),
  uniqueViolations: {
    realm_domains_realm_domain_key: domainAlreadyAdded,
    linkifiers_realm_pattern_key: uniqueTogether('Realm filter', ['Realm', 'Pattern']),
    code_playgrounds_realm_language_name_key: uniqueTogether('Realm playground', ['Realm', 'Pygments language', 'Name']),
  },
};
