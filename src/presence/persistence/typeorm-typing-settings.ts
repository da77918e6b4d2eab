import type { TypingSenderSettings } from '@app/domain/presence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TypingSettings } from '../application/presence.ports.js';

/** The users' typing settings (PATCH /settings): what a sender shares, and who wants to be told. */
@Injectable()
export class TypeOrmTypingSettings extends TypingSettings {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async senderSettings(realmId: number, userId: number): Promise<TypingSenderSettings> {
    const rows: { send_private_typing_notifications: boolean; send_stream_typing_notifications: boolean }[] = await this.ds.query(
      `SELECT send_private_typing_notifications, send_stream_typing_notifications FROM users WHERE realm_id = $1 AND id = $2`,
      [realmId, userId],
    );
    const r = rows[0];
    return { sendPrivate: r?.send_private_typing_notifications ?? true, sendStream: r?.send_stream_typing_notifications ?? true };
  }
}
