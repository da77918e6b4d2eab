import { referencedUploadPaths, uploadPreviewOf } from '@app/domain/messages';
import { Injectable } from '@nestjs/common';
import { EmojiCatalog, presentRealmEmoji } from '../../emoji/index.js';
import { PatternEngine } from '../../realm/index.js';
import type { Tx } from '../../shared/application/unit-of-work.js';
import { ServerConfig } from '../../shared/config/server-config.js';
import type { MentionTargets, RenderLinkifier, RenderTargets } from './message-renderer.js';

/** Zulip's STREAM_LINK_REGEX / STREAM_TOPIC_LINK_REGEX, loosely: every name that could be linked. */
const CHANNEL_LINK = /#\*\*([^*>]+)(?:>[^*]*)?\*\*/g;
/** Zulip's EMOJI_REGEX (`:[\w\-\+]+:`, Unicode word characters). */
const EMOJI_SYNTAX = /:([\p{L}\p{N}\p{Mn}\p{Pc}\-+]+):/gu;

/** What the content could link or show: channel names and emoji names (a superset; code blocks not excluded). */
export function renderCandidates(content: string): { channelNames: string[]; emojiNames: string[] } {
  const channelNames = new Set<string>();
  for (const m of content.matchAll(CHANNEL_LINK)) channelNames.add(m[1]);
  const emojiNames = new Set<string>();
  // Overlapping candidates (`:a:b:`) are both collected: scan from every colon.
  for (let i = content.indexOf(':'); i >= 0; i = content.indexOf(':', i + 1)) {
    EMOJI_SYNTAX.lastIndex = i;
    const m = EMOJI_SYNTAX.exec(content);
    if (m && m.index === i) emojiNames.add(m[1]);
  }
  return { channelNames: [...channelNames], emojiNames: [...emojiNames] };
}

/** Zulip's prepare_linkifier_pattern: a match starts after whitespace or an opening delimiter and is not followed by a letter or digit. */
export function prepareLinkifierPattern(source: string): string {
  return `(?P<linkifier_before_match>^|\\s|\\x{85}|\\pZ|['"\\(,:<])(?P<linkifier_actual_match>${source})(?P<linkifier_after_match>$|[^\\pL\\pN])`;
}

/**
 * Resolves, inside the caller's transaction, every name a rendering looks up: the channels
 * the content links (those `viewerId` may see), the custom emoji it names and the
 * organization's linkifiers, and the uploaded images it links (read FOR KEY SHARE, see
 * ImageAttachmentRepository.previewable), one statement per kind whatever the content holds. The
 * collaborator of every use case that renders (send, edit, preview, notices, reminders).
 */
@Injectable()
export class RenderTargetsResolver {
  constructor(
    private readonly engine: PatternEngine,
    private readonly config: ServerConfig,
    private readonly emoji: EmojiCatalog,
  ) {}

  async resolve(tx: Tx, realmId: number, viewerId: number | null, content: string, mentions: MentionTargets): Promise<RenderTargets> {
    const { channelNames, emojiNames } = renderCandidates(content);
    const channels = await tx.conversations.linkableChannels(realmId, channelNames, viewerId);
    const emoji = await tx.realmEmoji.activeNamed(realmId, emojiNames);
    const settings = await tx.conversations.renderSettings(realmId);
    const uploadPaths = referencedUploadPaths(content);
    const images = uploadPaths.length === 0 ? [] : await tx.imageAttachments.previewable(realmId, uploadPaths);
    return {
      ...mentions,
      channelsByName: new Map(channels.map((c) => [c.name, c])),
      customEmoji: new Map(emoji.map((e) => [e.name, { name: e.name, url: presentRealmEmoji(e).source_url }])),
      unicodeEmoji: this.emoji.unicode(),
      linkifiers: settings.linkifiers.flatMap((l): RenderLinkifier[] => {
        const compiled = this.engine.compile(prepareLinkifierPattern(l.pattern));
        return compiled.ok ? [{ pattern: compiled.regex, urlTemplate: l.urlTemplate }] : [];
      }),
      realmUrl: this.config.realmUrl(settings.stringId),
      uploadPreviews: new Map(images.map((i) => [i.pathId, uploadPreviewOf(i)])),
    };
  }
}
