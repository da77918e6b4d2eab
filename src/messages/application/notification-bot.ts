import { type ChannelNotice, Message } from '@app/domain/messages';
import { Injectable } from '@nestjs/common';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { newMessageEvent } from './message.events.js';
import { MessageRenderer } from './message-renderer.js';
import { RenderTargetsResolver } from './render-targets.resolver.js';

/**
 * The Notification Bot's messages inside the caller's transaction: channel notices (moves,
 * resolve toggles) and direct notices (delivered reminders). A collaborator of use cases,
 * with no unit of work of its own.
 */
@Injectable()
export class NotificationBot {
  constructor(
    private readonly renderer: MessageRenderer,
    private readonly renderTargets: RenderTargetsResolver,
  ) {}

  /** The content as the bot's message renders it (mentions of `users` resolved by id). */
  async render(tx: Tx, realmId: number, content: string, users: readonly { id: number; fullName: string }[] = []): Promise<string> {
    const targets = await this.renderTargets.resolve(tx, realmId, null, content, {
      usersByName: new Map(),
      usersById: new Map(users.map((u) => [u.id, u])),
      groupsByName: new Map(),
    });
    return this.renderer.render(content, targets);
  }

  /**
   * A notice in a channel topic: every subscriber gets it, read for `readBy` (the acting user).
   * Mentions in the content are silent ones of `users`.
   */
  async postChannelNotice(
    tx: Tx,
    realmId: number,
    notice: ChannelNotice,
    readBy: number | readonly number[] | null,
    users: readonly { id: number; fullName: string }[],
    now: Date,
  ): Promise<number> {
    const bot = await tx.users.systemBot(realmId, 'notification-bot');
    const renderedContent = await this.render(tx, realmId, notice.content, users);
    const recipientId = await tx.conversations.channelRecipient(realmId, notice.channelId);
    const message = Message.createNotice(
      { realmId, senderId: bot.id, content: notice.content, renderedContent, sendingClient: 'Internal' },
      { kind: 'channel', channelId: notice.channelId, recipientId, topic: notice.topic },
      readBy === null ? [] : typeof readBy === 'number' ? [readBy] : readBy,
      now,
    );
    const rows = await tx.messages.add(message);
    const channel = (await tx.channels.findById(realmId, notice.channelId))!;
    const realm = await tx.realms.get(realmId);
    tx.afterCommit([newMessageEvent(message, { realmStringId: realm.stringId, sender: bot, to: { channel }, rows })]);
    return message.id;
  }

  /**
   * A direct message to one user (delivered reminders), sent at `dateSent`: unread for the
   * user, read for the bot. `renderedContent` is the caller's rendering.
   */
  async postDirectNotice(tx: Tx, realmId: number, userId: number, content: string, renderedContent: string, dateSent: Date): Promise<number> {
    const bot = await tx.users.systemBot(realmId, 'notification-bot');
    const participants = [bot.id, userId];
    const conversation = await tx.conversations.directConversation(realmId, participants);
    const message = Message.createNotice(
      { realmId, senderId: bot.id, content, renderedContent, sendingClient: 'Internal' },
      { kind: 'direct', recipientId: conversation.recipientId, participants },
      [],
      dateSent,
    );
    const rows = await tx.messages.add(message);
    const users = await tx.users.findManyByIds(realmId, participants);
    const realmStringId = (await tx.realms.get(realmId)).stringId;
    tx.afterCommit([newMessageEvent(message, { realmStringId, sender: bot, to: { participants: [...users.values()] }, rows })]);
    return message.id;
  }

  /**
   * One direct message to each of several users at once, all sent `now`, in a number of
   * statements that does not grow with the users: unread for each user, read for the bot.
   * Mentions in the contents are silent ones of `users`.
   */
  async postDirectNotices(
    tx: Tx,
    realmId: number,
    notices: readonly { userId: number; content: string }[],
    users: readonly { id: number; fullName: string }[],
    now: Date,
  ): Promise<void> {
    if (notices.length === 0) return;
    const bot = await tx.users.systemBot(realmId, 'notification-bot');
    // The names every notice links are resolved together, once.
    const targets = await this.renderTargets.resolve(tx, realmId, null, notices.map((n) => n.content).join('\n'), {
      usersByName: new Map(),
      usersById: new Map(users.map((u) => [u.id, u])),
      groupsByName: new Map(),
    });
    const recipientIds = await tx.conversations.directConversations(
      realmId,
      notices.map((n) => [bot.id, n.userId]),
    );
    const messages = notices.map((n, i) =>
      Message.createNotice(
        { realmId, senderId: bot.id, content: n.content, renderedContent: this.renderer.render(n.content, targets), sendingClient: 'Internal' },
        { kind: 'direct', recipientId: recipientIds[i], participants: [bot.id, n.userId] },
        [],
        now,
      ),
    );
    const rows = await tx.messages.addDirectNotices(messages);
    const people = await tx.users.findManyByIds(realmId, notices.map((n) => n.userId));
    const realmStringId = (await tx.realms.get(realmId)).stringId;
    tx.afterCommit(
      messages.map((message, i) =>
        newMessageEvent(message, { realmStringId, sender: bot, to: { participants: [bot, people.get(notices[i].userId)!] }, rows: rows[i] }),
      ),
    );
  }
}
