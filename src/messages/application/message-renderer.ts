import { UnicodeEmojiTable, type UnicodeEmojiLookup } from '@app/domain/emoji';
import type { UploadPreview } from '@app/domain/messages';
import type { CompiledPattern } from '@app/domain/realm';

/** Who a message's mentions resolve to (resolved by the service, read by the renderer). */
export interface MentionTargets {
  /** Active users of the organization by lower-cased full name (only unambiguous names). */
  usersByName: ReadonlyMap<string, { id: number; fullName: string }>;
  usersById: ReadonlyMap<number, { id: number; fullName: string }>;
  groupsByName: ReadonlyMap<string, { id: number; name: string }>;
}

/** A linkifier ready to run: its pattern compiled (wrapped as Zulip's prepare_linkifier_pattern does). */
export interface RenderLinkifier {
  pattern: CompiledPattern;
  urlTemplate: string;
}

/**
 * Everything a rendering looks up, resolved before rendering with one query per kind
 * (RenderTargetsResolver), so the renderer itself does no I/O.
 */
export interface RenderTargets extends MentionTargets {
  /** Channels the sender may see, by lower-cased name (`#**name**` links). */
  channelsByName: ReadonlyMap<string, { id: number; name: string }>;
  /** The organization's active custom emoji named in the content, by name, with their image URL. */
  customEmoji: ReadonlyMap<string, { name: string; url: string }>;
  /** The server's Unicode emoji names (`:name:` and literal emoji). */
  unicodeEmoji: UnicodeEmojiLookup;
  /** The organization's linkifiers, in application order. */
  linkifiers: readonly RenderLinkifier[];
  /** The organization's URL (links into it become relative), or null. */
  realmUrl: string | null;
  /**
   * The organization's uploaded images the content links, by path id (Zulip's
   * user_upload_previews): a `/user_uploads/` link is previewed exactly when its upload is here
   * (as its thumbnail, or a loading placeholder). Absent: rendering without the database, where
   * such links are previewed by their extension like any other.
   */
  uploadPreviews?: ReadonlyMap<string, UploadPreview>;
}

/** Targets that resolve nothing (content rendered outside any organization's names). */
export function noRenderTargets(mentions?: Partial<MentionTargets>): RenderTargets {
  return {
    usersByName: mentions?.usersByName ?? new Map(),
    usersById: mentions?.usersById ?? new Map(),
    groupsByName: mentions?.groupsByName ?? new Map(),
    channelsByName: new Map(),
    customEmoji: new Map(),
    unicodeEmoji: UnicodeEmojiTable.EMPTY,
    linkifiers: [],
    realmUrl: null,
  };
}

/** Zulip-flavoured Markdown → HTML. */
export abstract class MessageRenderer {
  abstract render(markdown: string, targets: RenderTargets): string;
}

/** An HTML diff of two renderings of a message, for its edit history (Zulip's highlight_html_differences). */
export abstract class HtmlDiffer {
  abstract diff(before: string, after: string): string;
}
