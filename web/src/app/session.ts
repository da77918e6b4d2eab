import { ApiError, type ApiClient } from '../api/client';
import { EventLoop } from '../api/events';
import type { FetchMessagesResponse, Me, Message, PresenceInfo, RegisterResponse, ServerEvent, Stream } from '../api/types';
import { hashToNarrow, isSearchNarrow, type Narrow, narrowChannelId, narrowKey, narrowToApi, narrowToHash, resolveNarrow } from '../narrow/narrow';
import { makeLookup } from '../state/selectors';
import { type AppState, stateFromRegister, Store } from '../state/store';

export type Recipient = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; userIds: number[] };

export interface SessionHooks {
  onReady(): void;
  onLoggedOut(): void;
}

const FETCH_BATCH = 50;

/** Plain text of rendered message HTML (for notifications). */
function textOf(html: string): string {
  const t = document.createElement('template');
  t.innerHTML = html;
  return (t.content.textContent ?? '').trim();
}

/**
 * A logged-in session: the store, the events loop, the open view's loading, and the actions the
 * components call (each a request of the public API; failures thrown as ApiError for the form
 * that asked to show).
 */
export class Session {
  store: Store | null = null;
  private readonly loop: EventLoop;
  private loadingOlder = false;
  private loadingNewer = false;
  private readPending = new Set<number>();
  private readTimer: ReturnType<typeof setTimeout> | null = null;
  private echoCounter = 0;
  private intervals: ReturnType<typeof setInterval>[] = [];
  private stopped = false;

  constructor(
    readonly client: ApiClient,
    private readonly me: Me,
    private readonly realmName: string,
    private readonly hooks: SessionHooks,
  ) {
    this.loop = new EventLoop(client, {
      onRegistered: (st) => this.registered(st),
      onEvents: (events) => this.events(events),
      onStatus: (status) => this.store?.dispatch({ type: 'connection', status }),
    });
  }

  get state(): AppState {
    return this.store!.getState();
  }

  /** Follows the address bar (links, back and forward) from now on. */
  watchLocation(): void {
    window.addEventListener('hashchange', this.onLocation);
    window.addEventListener('popstate', this.onLocation);
  }

  start(): void {
    this.watchLocation();
    this.intervals.push(setInterval(() => this.store?.dispatch({ type: 'typingExpire', now: Date.now() }), 2000));
    this.intervals.push(setInterval(() => void this.sendPresence(), 60_000));
    void this.loop.run();
  }

  stop(): void {
    this.stopped = true;
    this.loop.stop();
    window.removeEventListener('hashchange', this.onLocation);
    window.removeEventListener('popstate', this.onLocation);
    for (const i of this.intervals) clearInterval(i);
    if (this.readTimer) clearTimeout(this.readTimer);
  }

  /** A queue registered: the first state, or (after BAD_EVENT_QUEUE_ID) the state again, and the view reloaded. */
  private registered(st: RegisterResponse): void {
    if (this.store === null) {
      const state = stateFromRegister(st, this.me, this.realmName);
      const narrow = resolveNarrow(hashToNarrow(location.hash) ?? [], makeLookup(state));
      this.store = new Store(stateFromRegister(st, this.me, this.realmName, narrow));
      this.hooks.onReady();
    } else {
      this.store.dispatch({ type: 'register', state: st, me: this.me, realmName: this.realmName });
    }
    void this.loadView();
    void this.loadTopics();
    void this.loadRecentDms();
    void this.sendPresence();
  }

  private events(events: ServerEvent[]): void {
    if (!this.store) return;
    this.notify(events);
    this.store.dispatch({ type: 'events', events, now: Date.now() });
    const { view } = this.state;
    if (view.movedTo) {
      const to = view.movedTo;
      this.store.dispatch({ type: 'movedHandled' });
      this.narrowTo(to, true);
    }
    if (events.some((e) => e.type === 'subscription' && e.op === 'add')) void this.loadTopics();
  }

  /** Desktop notifications and sounds for DMs and mentions, as the user's settings ask. */
  private notify(events: ServerEvent[]): void {
    const settings = this.state.userSettings;
    for (const e of events) {
      if (e.type !== 'message' || typeof e.local_message_id === 'string') continue;
      const m = e.message as Message;
      const flags = (e.flags as string[] | undefined) ?? [];
      if (m.sender_id === this.state.me.user_id || flags.includes('read')) continue;
      const important = m.type === 'private' || flags.includes('mentioned') || flags.includes('stream_wildcard_mentioned');
      if (!important) continue;
      if (settings.enable_sounds !== false && document.visibilityState === 'hidden') beep();
      if (settings.enable_desktop_notifications === true && typeof Notification !== 'undefined' && Notification.permission === 'granted' && !document.hasFocus()) {
        const title = m.type === 'private' ? m.sender_full_name : `${m.sender_full_name} (#${String(m.display_recipient)} › ${m.subject})`;
        try {
          new Notification(title, { body: textOf(m.content).slice(0, 300), tag: String(m.id) });
        } catch {
          // Some browsers allow notifications only from a service worker.
        }
      }
    }
  }

  // ── Narrows ──────────────────────────────────────────────────────────────────────────────

  private onLocation = (): void => {
    if (!this.store) return;
    const parsed = hashToNarrow(location.hash);
    if (parsed === null) return;
    const narrow = resolveNarrow(parsed, makeLookup(this.state));
    if (narrowKey(narrow) !== this.state.view.key) this.applyNarrow(narrow);
  };

  /** Opens a narrow (its hash in the address bar, so a reload keeps it). */
  narrowTo(narrow: Narrow, replace = false): void {
    const resolved = resolveNarrow(narrow, makeLookup(this.state));
    const hash = narrowToHash(resolved, makeLookup(this.state));
    if (location.hash !== hash) {
      if (replace) history.replaceState(null, '', hash);
      else history.pushState(null, '', hash);
    }
    this.applyNarrow(resolved);
  }

  private applyNarrow(narrow: Narrow): void {
    this.store!.dispatch({ type: 'narrow', narrow });
    void this.loadView();
    void this.loadTopics();
  }

  private messagesParams(narrow: Narrow) {
    return { narrow: narrowToApi(narrow), apply_markdown: true, client_gravatar: false };
  }

  async loadView(): Promise<void> {
    const { view } = this.state;
    const generation = view.generation;
    this.loadingOlder = false;
    this.loadingNewer = false;
    try {
      const response = await this.client.get<FetchMessagesResponse>('messages', {
        ...this.messagesParams(view.narrow),
        anchor: isSearchNarrow(view.narrow) ? 'newest' : 'first_unread',
        num_before: FETCH_BATCH,
        num_after: FETCH_BATCH,
      });
      this.store!.dispatch({ type: 'loaded', generation, direction: 'initial', response });
    } catch (e) {
      this.store!.dispatch({ type: 'loadFailed', generation, error: e instanceof Error ? e.message : String(e) });
    }
  }

  async loadOlder(): Promise<void> {
    const { view } = this.state;
    if (this.loadingOlder || view.loading || view.foundOldest || view.ids.length === 0) return;
    const first = view.ids.find((id) => Number.isInteger(id));
    if (first === undefined) return;
    this.loadingOlder = true;
    const generation = view.generation;
    try {
      const response = await this.client.get<FetchMessagesResponse>('messages', {
        ...this.messagesParams(view.narrow),
        anchor: first,
        num_before: FETCH_BATCH,
        num_after: 0,
        include_anchor: false,
      });
      this.store!.dispatch({ type: 'loaded', generation, direction: 'older', response });
    } catch {
      // Scrolling up again retries.
    } finally {
      this.loadingOlder = false;
    }
  }

  async loadNewer(): Promise<void> {
    const { view } = this.state;
    if (this.loadingNewer || view.loading || view.foundNewest || view.ids.length === 0) return;
    const last = view.ids.findLast((id) => Number.isInteger(id));
    if (last === undefined) return;
    this.loadingNewer = true;
    const generation = view.generation;
    try {
      const response = await this.client.get<FetchMessagesResponse>('messages', {
        ...this.messagesParams(view.narrow),
        anchor: last,
        num_before: 0,
        num_after: FETCH_BATCH,
        include_anchor: false,
      });
      this.store!.dispatch({ type: 'loaded', generation, direction: 'newer', response });
    } catch {
      // Scrolling down again retries.
    } finally {
      this.loadingNewer = false;
    }
  }

  async loadTopics(): Promise<void> {
    const id = narrowChannelId(this.state.view.narrow);
    if (id === undefined || !this.state.subscriptions.has(id)) return;
    try {
      const r = await this.client.get<{ topics: { name: string; max_id: number }[] }>(`users/me/${id}/topics`);
      this.store!.dispatch({ type: 'topics', streamId: id, topics: r.topics });
    } catch {
      // The topic list stays as the messages made it.
    }
  }

  private async loadRecentDms(): Promise<void> {
    try {
      const r = await this.client.get<FetchMessagesResponse>('messages', {
        anchor: 'newest',
        num_before: 200,
        num_after: 0,
        narrow: [{ operator: 'is', operand: 'dm' }],
        apply_markdown: false,
        client_gravatar: true,
      });
      this.store!.dispatch({ type: 'recentDms', messages: r.messages });
    } catch {
      // The list shows unread conversations and new ones.
    }
  }

  private async sendPresence(): Promise<void> {
    if (!this.store || this.stopped) return;
    try {
      const r = await this.client.post<{ presences?: Record<string, PresenceInfo | Record<string, unknown>> }>('users/me/presence', {
        status: document.visibilityState === 'visible' ? 'active' : 'idle',
        ping_only: false,
        new_user_input: document.visibilityState === 'visible',
        slim_presence: true,
        last_update_id: -1,
      });
      const modern: Record<string, PresenceInfo> = {};
      for (const [id, p] of Object.entries(r.presences ?? {})) if (typeof (p as PresenceInfo).active_timestamp === 'number') modern[id] = p as PresenceInfo;
      this.store.dispatch({ type: 'presence', presences: modern });
    } catch {
      // Presence is best effort.
    }
  }

  // ── Reading ──────────────────────────────────────────────────────────────────────────────

  /** Messages seen on screen: marked read (at once on the page, in a batch on the server). */
  markSeen(ids: number[]): void {
    const fresh = ids.filter((id) => Number.isInteger(id) && this.state.unread.has(id) && !this.readPending.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.readPending.add(id);
    this.readTimer ??= setTimeout(() => this.flushRead(), 150);
  }

  private flushRead(): void {
    this.readTimer = null;
    const ids = [...this.readPending];
    this.readPending.clear();
    if (ids.length === 0 || !this.store) return;
    this.store.dispatch({ type: 'markRead', ids });
    this.client.post('messages/flags', { messages: ids, op: 'add', flag: 'read' }).catch(() => undefined);
  }

  // ── Sending ──────────────────────────────────────────────────────────────────────────────

  /** Sends a message with a local echo; the echo is replaced by the message's event. */
  async send(to: Recipient, content: string): Promise<void> {
    const s = this.state;
    this.echoCounter += 1;
    const base = Math.max(s.maxMessageId, ...s.view.ids.filter((id) => Number.isInteger(id)));
    const localId = (base + this.echoCounter / 1000).toFixed(3);
    const me = s.users.get(s.me.user_id);
    const echo: Message = {
      id: Number(localId),
      local_id: localId,
      sender_id: s.me.user_id,
      sender_full_name: s.me.full_name,
      sender_email: s.me.email,
      avatar_url: me?.avatar_url ?? s.me.avatar_url,
      content: '',
      timestamp: Math.floor(Date.now() / 1000),
      subject: to.kind === 'stream' ? to.topic : '',
      type: to.kind === 'stream' ? 'stream' : 'private',
      stream_id: to.kind === 'stream' ? to.streamId : undefined,
      display_recipient:
        to.kind === 'stream'
          ? (s.subscriptions.get(to.streamId)?.name ?? '')
          : [s.me.user_id, ...to.userIds].map((id) => ({ id, email: s.users.get(id)?.email ?? '', full_name: s.users.get(id)?.full_name ?? '' })),
      reactions: [],
      flags: ['read'],
      raw: content,
    };
    this.store!.dispatch({ type: 'localEcho', message: echo });
    const params =
      to.kind === 'stream'
        ? { type: 'stream', to: to.streamId, topic: to.topic, content }
        : { type: 'direct', to: to.userIds, content };
    try {
      const r = await this.client.post<{ id: number }>('messages', { ...params, queue_id: this.loop.queue ?? undefined, local_id: localId, read_by_sender: true });
      this.store!.dispatch({ type: 'echoSent', localId, id: r.id });
    } catch (e) {
      this.store!.dispatch({ type: 'echoRemoved', localId });
      throw e;
    }
  }

  typing(op: 'start' | 'stop', to: Recipient): void {
    const params = to.kind === 'stream' ? { type: 'stream', stream_id: to.streamId, topic: to.topic, op } : { type: 'direct', to: to.userIds, op };
    this.client.post('typing', params).catch(() => undefined);
  }

  async render(content: string): Promise<string> {
    const r = await this.client.post<{ rendered: string }>('messages/render', { content });
    return r.rendered;
  }

  upload(file: File): Promise<{ url: string; uri?: string; filename?: string }> {
    return this.client.upload('user_uploads', file);
  }

  // ── Message actions ──────────────────────────────────────────────────────────────────────

  async toggleReaction(m: Message, emoji: { name: string; code: string; type: string }): Promise<void> {
    const mine = m.reactions.some((r) => r.user_id === this.state.me.user_id && r.emoji_code === emoji.code && r.reaction_type === emoji.type);
    const params = { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type };
    if (mine) await this.client.delete(`messages/${m.id}/reactions`, params);
    else await this.client.post(`messages/${m.id}/reactions`, params);
  }

  async toggleStar(m: Message): Promise<void> {
    const starred = m.flags.includes('starred');
    await this.client.post('messages/flags', { messages: [m.id], op: starred ? 'remove' : 'add', flag: 'starred' });
  }

  async rawContent(id: number): Promise<string> {
    const r = await this.client.get<{ raw_content?: string; message: { content: string } }>(`messages/${id}`, { apply_markdown: false });
    return r.raw_content ?? r.message.content;
  }

  async edit(id: number, content: string): Promise<void> {
    await this.client.patch(`messages/${id}`, { content });
  }

  async moveTopic(id: number, topic: string, propagateMode: 'change_one' | 'change_later' | 'change_all', streamId?: number): Promise<void> {
    await this.client.patch(`messages/${id}`, { topic, propagate_mode: propagateMode, stream_id: streamId });
  }

  async deleteMessage(id: number): Promise<void> {
    await this.client.delete(`messages/${id}`);
  }

  // ── Channels, settings, administration ───────────────────────────────────────────────────

  async listStreams(): Promise<Stream[]> {
    const r = await this.client.get<{ streams: Stream[] }>('streams', { include_public: true, include_subscribed: true });
    return r.streams;
  }

  async subscribe(name: string): Promise<void> {
    await this.client.post('users/me/subscriptions', { subscriptions: [{ name }] });
  }

  async unsubscribe(name: string): Promise<void> {
    await this.client.delete('users/me/subscriptions', { subscriptions: [name] });
  }

  async createChannel(name: string, description: string, isPrivate: boolean): Promise<void> {
    await this.client.post('users/me/subscriptions', { subscriptions: [{ name, description }], invite_only: isPrivate });
  }

  async updateSettings(params: Record<string, unknown>): Promise<void> {
    await this.client.patch('settings', params);
  }

  async invite(emails: string, streamIds: number[], inviteAs: number): Promise<void> {
    await this.client.post('invites', { invitee_emails: emails, stream_ids: streamIds, invite_as: inviteAs });
  }

  async inviteLink(streamIds: number[], inviteAs: number): Promise<string> {
    const r = await this.client.post<{ invite_link: string }>('invites/multiuse', { stream_ids: streamIds, invite_as: inviteAs });
    return r.invite_link;
  }

  async renameRealm(name: string): Promise<void> {
    await this.client.patch('realm', { name });
  }

  async logout(): Promise<void> {
    try {
      await this.client.post('/accounts/logout/');
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
    }
    this.stop();
    this.hooks.onLoggedOut();
  }
}

/** A short notification sound (no audio file to load). */
function beep(): void {
  try {
    const AudioCtx = window.AudioContext;
    if (!AudioCtx) return;
    const ctx = new AudioCtx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio.
  }
}
