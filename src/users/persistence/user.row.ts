import type { BotType, Role } from '@app/domain/users';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserRow {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'realm_id' }) realmId: number;
  @Column() email: string;
  @Column({ name: 'delivery_email' }) deliveryEmail: string;
  @Column({ name: 'full_name' }) fullName: string;
  @Column({ name: 'password_hash', type: 'text', nullable: true }) passwordHash: string | null;
  @Column({ name: 'api_key' }) apiKey: string;
  @Column({ type: 'smallint' }) role: Role;
  @Column({ name: 'is_active' }) isActive: boolean;
  @Column({ name: 'is_bot' }) isBot: boolean;
  @Column({ name: 'bot_type', type: 'smallint', nullable: true }) botType: BotType | null;
  @Column({ name: 'bot_owner_id', type: 'integer', nullable: true }) botOwnerId: number | null;
  @Column({ name: 'is_system_bot' }) isSystemBot: boolean;
  @Column({ name: 'date_joined', type: 'timestamptz' }) dateJoined: Date;
  @Column() timezone: string;
  @Column({ name: 'avatar_version' }) avatarVersion: number;
  @Column({ name: 'avatar_path', type: 'text', nullable: true }) avatarPath: string | null;
  @Column({ name: 'default_sending_stream_id', type: 'integer', nullable: true }) defaultSendingStreamId: number | null;
  @Column({ name: 'default_events_register_stream_id', type: 'integer', nullable: true })
  defaultEventsRegisterStreamId: number | null;
  @Column({ name: 'default_all_public_streams' }) defaultAllPublicStreams: boolean;
  @Column({ name: 'email_address_visibility', type: 'smallint' }) emailAddressVisibility: number;
  @Column({ name: 'default_language' }) defaultLanguage: string;
}
