import type { TypingSenderSettings } from '@app/domain/presence';
import { Injectable } from '@nestjs/common';
import { TypingSettings } from '../application/presence.ports.js';

/**
 * The typing settings every user has until the users table stores them (the PATCH /settings
 * work adds send_private_typing_notifications, send_stream_typing_notifications and
 * receives_typing_notifications): Zulip's defaults, all on. Replace this adapter with one that
 * reads those columns (one statement per request, set-based for `receivers`).
 */
@Injectable()
export class DefaultTypingSettings extends TypingSettings {
  senderSettings(): Promise<TypingSenderSettings> {
    return Promise.resolve({ sendPrivate: true, sendStream: true });
  }

  receivers(_realmId: number, userIds: readonly number[]): Promise<Set<number>> {
    return Promise.resolve(new Set(userIds));
  }
}
