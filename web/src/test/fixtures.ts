import type { Me, Message, RegisterResponse, Subscription, User } from '../api/types';
import { stateFromRegister, type AppState } from '../state/store';

/** Test data: an organization with three people and two channels. */
export const ME: Me = { user_id: 1, email: 'owner@example.com', full_name: 'Desdemona Owner', role: 100, avatar_url: null };

export const USERS: User[] = [
  { user_id: 1, email: 'owner@example.com', full_name: 'Desdemona Owner', avatar_url: null, role: 100, is_bot: false },
  { user_id: 2, email: 'pat@example.com', full_name: 'Pat Lee', avatar_url: 'https://secure.gravatar.com/avatar/x', role: 400, is_bot: false },
  { user_id: 3, email: 'sam@example.com', full_name: 'Sam Rivera', avatar_url: null, role: 400, is_bot: false },
];

export const GENERAL: Subscription = { stream_id: 10, name: 'general', description: 'Everyone', invite_only: false, color: '#76ce90', is_muted: false, pin_to_top: false };
export const SANDBOX: Subscription = { stream_id: 11, name: 'sandbox', description: '', invite_only: false, color: '#a6c7e5', is_muted: false, pin_to_top: false };

export function register(overrides: Partial<RegisterResponse> = {}): RegisterResponse {
  return {
    queue_id: 'q1',
    last_event_id: -1,
    realm_name: 'Demo Organization',
    realm_users: USERS,
    subscriptions: [GENERAL, SANDBOX],
    unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [] },
    starred_messages: [],
    realm_emoji: {},
    presences: {},
    user_settings: { enable_sounds: true, enable_desktop_notifications: false },
    max_message_id: 100,
    ...overrides,
  };
}

export function state(overrides: Partial<RegisterResponse> = {}, narrow: AppState['view']['narrow'] = []): AppState {
  return stateFromRegister(register(overrides), ME, 'Demo Organization', narrow);
}

let nextId = 200;

export function streamMessage(overrides: Partial<Message> = {}): Message {
  nextId += 1;
  return {
    id: nextId,
    sender_id: 2,
    sender_full_name: 'Pat Lee',
    sender_email: 'pat@example.com',
    avatar_url: null,
    content: '<p>Hello</p>',
    timestamp: 1_700_000_000,
    subject: 'greetings',
    type: 'stream',
    stream_id: 10,
    display_recipient: 'general',
    reactions: [],
    flags: [],
    ...overrides,
  };
}

export function dmMessage(overrides: Partial<Message> = {}): Message {
  nextId += 1;
  return {
    id: nextId,
    sender_id: 2,
    sender_full_name: 'Pat Lee',
    sender_email: 'pat@example.com',
    avatar_url: null,
    content: '<p>A private word</p>',
    timestamp: 1_700_000_000,
    subject: '',
    type: 'private',
    display_recipient: [
      { id: 1, email: 'owner@example.com', full_name: 'Desdemona Owner' },
      { id: 2, email: 'pat@example.com', full_name: 'Pat Lee' },
    ],
    reactions: [],
    flags: [],
    ...overrides,
  };
}

/** A `message` event as GET /events gives it (flags beside the message). */
export function messageEvent(m: Message, extra: Record<string, unknown> = {}) {
  const { flags, ...message } = m;
  return { id: nextId, type: 'message', message, flags, ...extra };
}
