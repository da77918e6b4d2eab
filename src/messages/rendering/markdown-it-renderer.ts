import type { UnicodeEmojiLookup } from '@app/domain/emoji';
import type { UploadPreview } from '@app/domain/messages';
import { expandUriTemplate } from '@app/domain/realm';
import { escapeHtml } from '@app/domain/shared';
import MarkdownIt from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { type MentionTargets, MessageRenderer, type RenderTargets } from '../application/message-renderer.js';
import {
  codeBlockHtml,
  displayMathHtml,
  encodeChannel,
  escapeAttr,
  escapeText,
  hashUtilEncode,
  imageEmojiHtml,
  imagePreviewHtml,
  isImageUrl,
  isoUtc,
  isSafeUrl,
  openTag,
  parseTimestamp,
  texHtml,
  unicodeEmojiHtml,
  ZULIP_EMOJI_URL,
} from './zulip-html.js';

/** What the rules read while rendering one message. */
interface RenderEnv {
  targets: RenderTargets;
  /** Nesting of ```quote / ```spoiler blocks (each renders its body again). */
  depth: number;
  /** Inside a quote: no image previews there, as in Zulip. */
  inQuote: boolean;
  /** Image URLs already previewed in this message. */
  previewed: Set<string>;
}

const envOf = (state: { env: unknown }): RenderEnv => state.env as RenderEnv;

/** Deeper quote/spoiler nesting than this renders as code (bounds the work for hostile input). */
const MAX_DEPTH = 10;
/** Zulip's Message.EMPTY_TOPIC_FALLBACK_NAME. */
const EMPTY_TOPIC_NAME = 'general chat';

// ---------------------------------------------------------------------------------------------
// Mentions (unchanged behaviour)

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

/** The HTML Zulip produces for a mention, or null to leave the text as written. */
function mentionHtml(silent: boolean, body: string, targets: MentionTargets): string | null {
  const cls = silent ? 'user-mention silent' : 'user-mention';
  const at = silent ? '' : '@';
  if (STREAM_WILDCARDS.has(body)) {
    return `<span class="${cls} channel-wildcard-mention" data-user-id="*">${at}${escapeHtml(body)}</span>`;
  }
  if (body === 'topic') return `<span class="topic-mention${silent ? ' silent' : ''}">${at}topic</span>`;
  const withId = /^(.*)\|(\d+)$/.exec(body);
  const user = withId ? targets.usersById.get(Number(withId[2])) : targets.usersByName.get(body.toLowerCase());
  if (!user) return null;
  return `<span class="${cls}" data-user-id="${user.id}">${at}${escapeHtml(user.fullName)}</span>`;
}

function groupHtml(silent: boolean, name: string, targets: MentionTargets): string | null {
  const group = targets.groupsByName.get(name);
  if (!group) return null;
  const cls = silent ? 'user-group-mention silent' : 'user-group-mention';
  return `<span class="${cls}" data-user-group-id="${group.id}">${silent ? '' : '@'}${escapeHtml(group.name)}</span>`;
}

/** Pushes raw HTML produced by a rule (nothing in validation mode). */
function pushHtml(state: StateInline, silent: boolean, html: string, length: number): true {
  if (!silent) state.push('svc_html', '', 0).content = html;
  state.pos += length;
  return true;
}

/** Inline rule: `@**Name**`, `@_**Name**`, `@*group*`, `@_*group*` before emphasis sees them. */
function mentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  const rest = state.src.slice(state.pos, Math.min(state.posMax, state.pos + 500));
  const targets = envOf(state).targets;
  let m = /^@(_?)\*\*([^*\n]+?)\*\*/.exec(rest);
  let html: string | null = null;
  if (m) html = mentionHtml(m[1] === '_', m[2].trim(), targets);
  else {
    m = /^@(_?)\*([^*\n]+?)\*(?!\*)/.exec(rest);
    if (m) html = groupHtml(m[1] === '_', m[2].trim(), targets);
  }
  if (!m || html === null) return false;
  return pushHtml(state, silent, html, m[0].length);
}

// ---------------------------------------------------------------------------------------------
// Channel, topic and message links

/** Zulip's BEFORE_MENTION_ALLOWED_REGEX: the start, whitespace or one of '"({[/< before. */
function mentionMayStart(state: StateInline): boolean {
  if (state.pos === 0) return true;
  return /[\s'"({[/<]/.test(state.src[state.pos - 1]);
}

const MESSAGE_LINK = /#\*\*([^*>]+)>([^*]*)@(\d+)\*\*/y;
const TOPIC_LINK = /#\*\*([^*>]+)>([^*]*)\*\*/y;
const CHANNEL_LINK = /#\*\*([^*]+)\*\*/y;

function topicText(channel: string, topic: string): string {
  return topic === '' ? `#${escapeText(channel)} &gt; <em>${EMPTY_TOPIC_NAME}</em>` : escapeText(`#${channel} > ${topic}`);
}

/** `#**channel**`, `#**channel>topic**`, `#**channel>topic@id**` for channels the sender may see. */
function channelLinkRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x23 /* # */ || src.charCodeAt(state.pos + 1) !== 0x2a || src.charCodeAt(state.pos + 2) !== 0x2a) {
    return false;
  }
  if (!mentionMayStart(state)) return false;
  const channels = envOf(state).targets.channelsByName;
  const at = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = state.pos;
    const m = re.exec(src);
    return m && m.index + m[0].length <= state.posMax ? m : null;
  };
  let m = at(MESSAGE_LINK);
  if (m) {
    const channel = channels.get(m[1]);
    if (!channel) return false;
    const href = `/#narrow/channel/${encodeChannel(channel.id, m[1])}/topic/${hashUtilEncode(m[2])}/near/${m[3]}`;
    return pushHtml(state, silent, `${openTag('a', { class: 'message-link', href })}${topicText(m[1], m[2])} @ 💬</a>`, m[0].length);
  }
  m = at(TOPIC_LINK);
  if (m) {
    const channel = channels.get(m[1]);
    if (!channel) return false;
    const href = `/#narrow/channel/${encodeChannel(channel.id, m[1])}/topic/${hashUtilEncode(m[2])}`;
    const attrs = { class: 'stream-topic', 'data-stream-id': String(channel.id), href };
    return pushHtml(state, silent, `${openTag('a', attrs)}${topicText(m[1], m[2])}</a>`, m[0].length);
  }
  m = at(CHANNEL_LINK);
  if (m) {
    const channel = channels.get(m[1]);
    if (!channel) return false;
    const attrs = { class: 'stream', 'data-stream-id': String(channel.id), href: `/#narrow/channel/${encodeChannel(channel.id, m[1])}` };
    return pushHtml(state, silent, `${openTag('a', attrs)}${escapeText(`#${m[1]}`)}</a>`, m[0].length);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Emoji

const EMOJI_NAME = /:([\p{L}\p{N}\p{Mn}\p{Pc}\-+]+):/uy;

/** `:name:` → the organization's custom emoji, the `zulip` emoji, or a Unicode emoji. */
function emojiRule(state: StateInline, silent: boolean): boolean {
  {
    if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
    EMOJI_NAME.lastIndex = state.pos;
    const m = EMOJI_NAME.exec(state.src);
    if (!m || m.index + m[0].length > state.posMax) return false;
    const name = m[1];
    const custom = envOf(state).targets.customEmoji.get(name);
    let html: string | null = null;
    if (custom) html = imageEmojiHtml(custom.url, name);
    else if (name === 'zulip') html = imageEmojiHtml(ZULIP_EMOJI_URL, name);
    else {
      const code = envOf(state).targets.unicodeEmoji.codeOf(name);
      if (code !== undefined) html = unicodeEmojiHtml(code, name);
    }
    if (html === null) return false;
    return pushHtml(state, silent, html, m[0].length);
  }
}

/** Zulip's POSSIBLE_EMOJI_RE (Unicode TR51's emoji sequence shape). */
const POSSIBLE_EMOJI =
  /\p{Regional_Indicator}\p{Regional_Indicator}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?(?:\u200D(?:\p{Regional_Indicator}\p{Regional_Indicator}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?))*/gu;

/** Zulip's emoji code of a literal emoji: hex code points (at least 4 digits), FE0F dropped. */
function emojiCode(emoji: string): string {
  return [...emoji]
    .map((c) => c.codePointAt(0)!)
    .filter((cp) => cp !== 0xfe0f)
    .map((cp) => cp.toString(16).padStart(4, '0'))
    .join('-');
}

// ---------------------------------------------------------------------------------------------
// Code, math, time, strikethrough

/** Zulip's backtick rule: a run of N backticks up to the next run of exactly N on the line, content kept as written. */
function backtickRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x60) return false;
  let n = 0;
  while (src.charCodeAt(state.pos + n) === 0x60) n++;
  const lineEnd = src.indexOf('\n', state.pos);
  const limit = Math.min(state.posMax, lineEnd < 0 ? state.posMax : lineEnd);
  let i = state.pos + n;
  while (i < limit) {
    const close = src.indexOf('`', i);
    if (close < 0 || close >= limit) break;
    let k = 0;
    while (src.charCodeAt(close + k) === 0x60) k++;
    if (k === n && close > state.pos + n) {
      if (!silent) state.push('code_inline', 'code', 0).content = src.slice(state.pos + n, close);
      state.pos = close + n;
      return true;
    }
    i = close + k;
  }
  if (!silent) state.pending += src.slice(state.pos, state.pos + n);
  state.pos += n;
  return true;
}

const TEX = /\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/y;
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** `$$…$$` inline math (Zulip's TEX_RE). */
function texRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x24 || src.charCodeAt(state.pos + 1) !== 0x24) return false;
  const before = state.pos > 0 ? src[state.pos - 1] : undefined;
  if (before === '$' || isWordChar(before)) return false;
  TEX.lastIndex = state.pos;
  const m = TEX.exec(src);
  if (!m || m.index + m[0].length > state.posMax || isWordChar(src[m.index + m[0].length])) return false;
  if (silent) {
    state.pos += m[0].length;
    return true;
  }
  const html = texHtml(m[1], false) ?? `<span class="tex-error">${escapeText(m[0])}</span>`;
  return pushHtml(state, silent, html, m[0].length);
}

const TIMESTAMP = /<time:([^>]*?)>/y;

/** `<time:…>` → `<time datetime="…">` (before autolinks read `time:` as a scheme). */
function timeRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c) return false;
  TIMESTAMP.lastIndex = state.pos;
  const m = TIMESTAMP.exec(state.src);
  if (!m || m.index + m[0].length > state.posMax) return false;
  const when = parseTimestamp(m[1]);
  const html =
    when === null
      ? `<span class="timestamp-error">Invalid time format: ${escapeText(m[1])}</span>`
      : `${openTag('time', { datetime: isoUtc(when) })}${escapeText(m[1])}</time>`;
  return pushHtml(state, silent, html, m[0].length);
}

/** Zulip's DEL_RE: `~~text~~` on one line, not next to another `~`; the text is Markdown. */
function strikethroughRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== 0x7e || src.charCodeAt(start + 1) !== 0x7e) return false;
  if (start > 0 && src[start - 1] === '~') return false;
  const bodyStart = start + 2;
  let end = -1;
  for (let i = bodyStart; i < state.posMax; i++) {
    const c = src[i];
    if (c === '\n') return false;
    if (c === '~') {
      if (i === bodyStart || src[i + 1] !== '~' || src[i + 2] === '~') return false;
      end = i;
      break;
    }
  }
  if (end < 0) return false;
  if (!silent) {
    state.push('s_open', 'del', 1);
    const oldMax = state.posMax;
    state.pos = bodyStart;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('s_close', 'del', -1);
  }
  state.pos = end + 2;
  return true;
}

const STRONG_EM = /\*\*\*(?!\s)([^*^\n]+)(?<!\s)\*\*\*/y;

/** Zulip's STRONG_EM_RE: `***text***` is strong around emphasis. */
function strongEmRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x2a) return false;
  STRONG_EM.lastIndex = state.pos;
  const m = STRONG_EM.exec(state.src);
  if (!m || m.index + m[0].length > state.posMax) return false;
  if (!silent) {
    state.push('strong_open', 'strong', 1);
    state.push('em_open', 'em', 1);
    const oldMax = state.posMax;
    state.pos += 3;
    state.posMax = state.pos + m[1].length;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('em_close', 'em', -1);
    state.push('strong_close', 'strong', -1);
  }
  state.pos = m.index + m[0].length;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Fenced quote and spoiler blocks (they nest, as Zulip's fenced_code preprocessor lets them)

const FENCE_LINE = /^\s*(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]*))?([^~`]*)\}?$/;

function fencedBlockRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const lineText = (n: number): string => state.src.slice(state.bMarks[n] + state.tShift[n], state.eMarks[n]);
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const open = FENCE_LINE.exec(lineText(startLine));
  if (!open) return false;
  const kind = (open[2] ?? '').toLowerCase();
  if (kind !== 'quote' && kind !== 'spoiler') return false;
  if (silent) return true;
  const stack = [open[1]];
  let line = startLine + 1;
  for (; line < state.lineMax; line++) {
    if (state.sCount[line] < state.blkIndent) break;
    const f = FENCE_LINE.exec(lineText(line));
    if (!f) continue;
    if (f[2]) stack.push(f[1]);
    else if (f[1] === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) break;
    }
  }
  const bodyLines: string[] = [];
  for (let n = startLine + 1; n < Math.min(line, state.lineMax); n++) {
    bodyLines.push(state.src.slice(state.bMarks[n] + Math.min(state.tShift[n], state.blkIndent), state.eMarks[n]));
  }
  const token = state.push(kind === 'quote' ? 'svc_quote' : 'svc_spoiler', '', 0);
  token.content = bodyLines.join('\n');
  token.info = (open[3] ?? '').trim();
  token.map = [startLine, line];
  token.block = true;
  state.line = Math.min(line + 1, state.lineMax);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Text-level passes: linkifiers and literal emoji, link fix-ups, image previews

type Piece = { html: false; text: string } | { html: true; text: string };

function applyLinkifiers(pieces: Piece[], targets: RenderTargets): Piece[] {
  let out = pieces;
  for (const linkifier of targets.linkifiers) {
    const next: Piece[] = [];
    for (const piece of out) {
      if (piece.html || piece.text === '') {
        next.push(piece);
        continue;
      }
      const text = piece.text;
      let last = 0;
      // Zulip resumes each search at the character after the match (it may start the next one).
      const matches = linkifier.pattern.scan(text, (m) => m.end - (m.groups.linkifier_after_match ?? '').length);
      for (const m of matches) {
        const before = m.groups.linkifier_before_match ?? '';
        const actual = m.groups.linkifier_actual_match ?? '';
        const start = m.index + before.length;
        if (actual === '' || start < last) continue;
        const end = start + actual.length;
        const href = expandUriTemplate(linkifier.urlTemplate, m.groups);
        next.push({ html: false, text: text.slice(last, start) });
        next.push({ html: true, text: `${openTag('a', { href: localized(href, targets) })}${escapeText(actual)}</a>` });
        last = end;
      }
      next.push({ html: false, text: text.slice(last) });
    }
    out = next;
  }
  return out;
}

function applyUnicodeEmoji(pieces: Piece[], unicode: UnicodeEmojiLookup): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (piece.html || !/[\u0080-\u{10ffff}]/u.test(piece.text)) {
      out.push(piece);
      continue;
    }
    let last = 0;
    for (const m of piece.text.matchAll(POSSIBLE_EMOJI)) {
      const code = emojiCode(m[0]);
      const name = unicode.nameOf(code);
      if (name === undefined) continue;
      out.push({ html: false, text: piece.text.slice(last, m.index) });
      out.push({ html: true, text: unicodeEmojiHtml(code, name) });
      last = m.index + m[0].length;
    }
    out.push({ html: false, text: piece.text.slice(last) });
  }
  return out;
}

/** Zulip's rewrite_local_links_to_relative: links into this organization's app or uploads. */
function localized(href: string, targets: RenderTargets): string {
  if (targets.realmUrl === null) return href;
  const prefix = `${targets.realmUrl}/`;
  return href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`) ? href.slice(prefix.length) : href;
}

function processInline(inline: Token, env: RenderEnv, TokenClass: typeof Token): string[] {
  const children = inline.children ?? [];
  const result: Token[] = [];
  const previews: string[] = [];
  let linkDepth = 0;
  for (let i = 0; i < children.length; i++) {
    const t = children[i];
    if (t.type === 'link_open') {
      linkDepth++;
      const href = localized(t.attrGet('href') ?? '', env.targets);
      t.attrs = [['href', href]];
      result.push(t);
      const next = children[i + 1];
      const empty = next?.type === 'link_close' || (next?.type === 'text' && next.content.trim() === '' && children[i + 2]?.type === 'link_close');
      if (empty) {
        const text = new TokenClass('text', '', 0);
        text.content = href;
        result.push(text);
        if (next.type === 'text') i++;
      }
      const upload = uploadPreviewOf(href, env.targets);
      if (upload !== undefined ? upload !== null : isImageUrl(href) && isSafeUrl(href)) {
        const label = t.markup === 'linkify' || t.markup === 'autolink' ? undefined : linkText(children, i + 1);
        if (!env.previewed.has(href)) {
          env.previewed.add(href);
          previews.push(imagePreviewHtml(href, label === undefined || label.trim() === '' ? undefined : label, upload ?? undefined));
        }
      }
      continue;
    }
    if (t.type === 'link_close') linkDepth--;
    if (t.type === 'text' && linkDepth === 0 && t.content !== '') {
      let pieces: Piece[] = [{ html: false, text: t.content }];
      pieces = applyLinkifiers(pieces, env.targets);
      pieces = applyUnicodeEmoji(pieces, env.targets.unicodeEmoji);
      for (const p of pieces) {
        if (p.text === '') continue;
        const tok = new TokenClass(p.html ? 'svc_html' : 'text', '', 0);
        tok.content = p.text;
        result.push(tok);
      }
      continue;
    }
    result.push(t);
  }
  inline.children = result;
  return previews;
}

/**
 * A `/user_uploads/` link when the organization's uploaded images are known (Zulip's is_image
 * for uploads): its image's preview, or null when it is no previewable image (not an image, a
 * decompression bomb, or one that failed). Undefined: any other link, or rendering without them.
 */
function uploadPreviewOf(href: string, targets: RenderTargets): UploadPreview | null | undefined {
  if (targets.uploadPreviews === undefined || !href.startsWith('/user_uploads/')) return undefined;
  const pathId = href.slice('/user_uploads/'.length);
  let decoded = pathId;
  try {
    decoded = decodeURIComponent(pathId);
  } catch {
    // not percent-encoded text: only the path as written
  }
  return targets.uploadPreviews.get(pathId) ?? targets.uploadPreviews.get(decoded) ?? null;
}

function linkText(children: Token[], from: number): string {
  let text = '';
  for (let i = from; i < children.length && children[i].type !== 'link_close'; i++) text += children[i].content;
  return text;
}

/** Core rule: the text-level passes over every paragraph, then image previews after it. */
function zulipPostProcess(state: StateCore): void {
  {
    const env = envOf(state);
    const tokens = state.tokens;
    let quoteDepth = 0;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.type === 'blockquote_open') quoteDepth++;
      if (t.type === 'blockquote_close') quoteDepth--;
      if (t.type !== 'inline') continue;
      const previews = processInline(t, env, state.Token);
      if (previews.length === 0 || quoteDepth > 0 || env.inQuote || tokens[i - 1]?.type !== 'paragraph_open') continue;
      const html = new state.Token('html_block', '', 0);
      html.content = `${previews.join('')}\n`;
      const kids = t.children ?? [];
      const onlyBareLink =
        kids.length === 3 && kids[0].type === 'link_open' && kids[0].markup === 'linkify' && kids[2].type === 'link_close' && !tokens[i - 1].hidden;
      if (onlyBareLink) {
        tokens.splice(i - 1, 3, html);
        i -= 1;
      } else {
        tokens.splice(i + 2, 0, html);
        i += 2;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * markdown-it configured as Zulip's Markdown dialect (zerver/lib/markdown): no raw HTML, no
 * reference links, setext headings, images or backslash escapes; newlines are line breaks;
 * `*` but not `_` emphasis; Zulip's mentions, channel links, emoji, math, timestamps,
 * linkifiers, fenced quotes and spoilers, Pygments-classed code blocks and image previews.
 * Pure: everything it looks up arrives resolved in `targets`.
 */
export class MarkdownItRenderer extends MessageRenderer {
  private readonly md = new MarkdownIt({ html: false, linkify: true, breaks: true });

  constructor() {
    super();
    const md = this.md;
    md.disable(['lheading', 'reference', 'escape', 'image', 'strikethrough', 'backticks']);
    md.validateLink = (url) => isSafeUrl(url);

    md.block.ruler.before('fence', 'svc_fence', fencedBlockRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });

    md.inline.ruler.before('emphasis', 'svc_backticks', backtickRule);
    md.inline.ruler.before('emphasis', 'svc_tex', texRule);
    md.inline.ruler.before('emphasis', 'svc_channel', channelLinkRule);
    md.inline.ruler.before('emphasis', 'svc_mention', mentionRule);
    md.inline.ruler.before('emphasis', 'svc_time', timeRule);
    md.inline.ruler.before('emphasis', 'svc_emoji', emojiRule);
    md.inline.ruler.before('emphasis', 'svc_del', strikethroughRule);
    md.inline.ruler.before('emphasis', 'svc_strong_em', strongEmRule);
    // Zulip has no `_` emphasis: the stock rule, refusing underscores.
    type InlineRule = (s: StateInline, silent: boolean) => boolean;
    const rules = (md.inline.ruler as unknown as { __rules__: { name: string; fn: InlineRule }[] }).__rules__;
    const emphasis = rules.find((rule) => rule.name === 'emphasis')!.fn;
    md.inline.ruler.at('emphasis', (state, silent) => state.src.charCodeAt(state.pos) !== 0x5f && emphasis(state, silent));
    md.core.ruler.push('svc_post', zulipPostProcess);

    const r = md.renderer.rules;
    r.svc_html = (tokens, idx) => tokens[idx].content;
    r.text = (tokens, idx) => escapeText(tokens[idx].content);
    r.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx].content)}</code>`;
    r.s_open = () => '<del>';
    r.s_close = () => '</del>';
    r.link_open = (tokens, idx) => openTag('a', { href: tokens[idx].attrGet('href') ?? '' });
    r.code_block = (tokens, idx) => `${codeBlockHtml(tokens[idx].content, '')}\n`;
    r.fence = (tokens, idx) => {
      const lang = tokens[idx].info.trim().split(/\s+/)[0].replace(/^\{?\.?/, '').replace(/\}$/, '');
      if (lang.toLowerCase() === 'math') return displayMathHtml(tokens[idx].content);
      return `${codeBlockHtml(tokens[idx].content, lang)}\n`;
    };
    r.svc_quote = (tokens, idx, _o, env: RenderEnv) => {
      if (env.depth >= MAX_DEPTH) return `${codeBlockHtml(tokens[idx].content, '')}\n`;
      return `<blockquote>\n${this.inner(tokens[idx].content, { ...env, depth: env.depth + 1, inQuote: true })}</blockquote>\n`;
    };
    r.svc_spoiler = (tokens, idx, _o, env: RenderEnv) => {
      if (env.depth >= MAX_DEPTH) return `${codeBlockHtml(tokens[idx].content, '')}\n`;
      const inner = { ...env, depth: env.depth + 1 };
      const header = tokens[idx].info === '' ? '' : this.inner(tokens[idx].info, inner);
      return (
        `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div>` +
        `<div class="spoiler-content" aria-hidden="true">\n${this.inner(tokens[idx].content, inner)}</div></div>\n`
      );
    };
    const cellStyle = (tag: string) => (tokens: Token[], idx: number) => {
      const style = tokens[idx].attrGet('style');
      const align = style ? /text-align:(\w+)/.exec(style)?.[1] : undefined;
      return align ? `<${tag} style="text-align: ${escapeAttr(align)};">` : `<${tag}>`;
    };
    r.th_open = cellStyle('th');
    r.td_open = cellStyle('td');
  }

  private inner(markdown: string, env: RenderEnv): string {
    return this.md.render(markdown, env);
  }

  render(markdown: string, targets: RenderTargets): string {
    const env: RenderEnv = { targets, depth: 0, inQuote: false, previewed: new Set() };
    try {
      return this.md.render(markdown, env).trimEnd();
    } catch {
      // Never fail a send over rendering: the text as one escaped paragraph.
      return markdown.trim() === '' ? '' : `<p>${escapeText(markdown.trim())}</p>`;
    }
  }
}
