import { DomainError } from '../shared/domain-error.js';
import {
  assertCanChangeRealmSettings,
  changedRealmProperties,
  fullMemberCutoff,
  parseMessageTimeLimit,
  parseRealmRetentionDays,
  type RealmProperties,
} from './realm-settings-update.js';

const current: RealmProperties = {
  name: 'Org',
  description: '',
  allowMessageEditing: true,
  messageContentEditLimitSeconds: 600,
  messageContentDeleteLimitSeconds: 600,
  moveMessagesWithinStreamLimitSeconds: 604800,
  moveMessagesBetweenStreamsLimitSeconds: 604800,
  messageEditHistoryVisibilityPolicy: 1,
  topicsPolicy: 2,
  messageRetentionDays: -1,
  waitingPeriodThreshold: 0,
  inviteRequired: true,
  emailsRestrictedToDomains: false,
  disallowDisposableEmailAddresses: true,
  enableSpectatorAccess: false,
  enableReadReceipts: true,
  sendChannelEventsMessages: true,
};

function thrown(f: () => unknown): DomainError {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('PATCH /realm rules', () => {
  it('leaves owner-only settings to owners', () => {
    for (const s of [
      'message_retention_days',
      'invite_required',
      'create_multiuse_invite_group',
      'can_create_groups',
      'can_invite_users_group',
      'can_manage_all_groups',
      'can_manage_billing_group',
      'emails_restricted_to_domains',
      'disallow_disposable_email_addresses',
      'waiting_period_threshold',
    ]) {
      const e = thrown(() => assertCanChangeRealmSettings(['name', s], false));
      expect([e.msg, e.code]).toEqual(['Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL']);
      assertCanChangeRealmSettings(['name', s], true);
    }
    assertCanChangeRealmSettings(['name', 'description', 'can_create_bots_group', 'topics_policy', 'enable_spectator_access'], false);
  });

  it('reads time limits as positive seconds or "unlimited"', () => {
    expect(parseMessageTimeLimit('message_content_edit_limit_seconds', 'unlimited')).toBeNull();
    expect(parseMessageTimeLimit('message_content_edit_limit_seconds', 1)).toBe(1);
    for (const bad of [0, -5, 'forever', 'null']) {
      const e = thrown(() => parseMessageTimeLimit('move_messages_within_stream_limit_seconds', bad));
      expect([e.msg, e.code, e.data]).toEqual([
        `Bad value for 'move_messages_within_stream_limit_seconds': ${bad}`,
        'REQUEST_VARIABLE_INVALID',
        { var_name: 'move_messages_within_stream_limit_seconds', bad_value: bad },
      ]);
    }
  });

  it('reads the retention as positive days or "unlimited" (-1)', () => {
    expect(parseRealmRetentionDays('unlimited')).toBe(-1);
    expect(parseRealmRetentionDays(30)).toBe(30);
    for (const bad of [0, -1, 'realm_default', 'x']) {
      expect(() => parseRealmRetentionDays(bad)).toThrow(`Bad value for 'message_retention_days': ${bad}`);
    }
  });

  it('reports only real changes: texts as "updated", others with their value', () => {
    expect(
      changedRealmProperties(current, {
        name: 'Org',
        description: 'New',
        allowMessageEditing: false,
        messageContentEditLimitSeconds: null,
        messageContentDeleteLimitSeconds: 600,
        topicsPolicy: 3,
        waitingPeriodThreshold: 0,
      }),
    ).toEqual({
      changes: { description: 'New', allowMessageEditing: false, messageContentEditLimitSeconds: null, topicsPolicy: 3 },
      reported: {
        description: 'updated',
        allow_message_editing: false,
        message_content_edit_limit_seconds: null,
        topics_policy: 3,
      },
    });
    expect(changedRealmProperties({ ...current, messageContentEditLimitSeconds: null }, { messageContentEditLimitSeconds: null })).toEqual({
      changes: {},
      reported: {},
    });
  });

  it('counts whole days of waiting', () => {
    const now = new Date('2025-01-10T12:00:00Z');
    expect(fullMemberCutoff(now, 0)).toEqual(now);
    expect(fullMemberCutoff(now, 3)).toEqual(new Date('2025-01-07T12:00:00Z'));
  });
});
