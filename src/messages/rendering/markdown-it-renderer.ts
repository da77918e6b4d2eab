import MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { escapeHtml } from '@app/domain/shared';
import { type MentionTargets, MessageRenderer } from '../application/message-renderer.js';

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

/** Inline rule: `@**Name**`, `@_**Name**`, `@*group*`, `@_*group*` before emphasis sees them. */
function mentionRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  const rest = state.src.slice(state.pos);
  const targets = (state.env as { targets?: MentionTargets }).targets;
  if (!targets) return false;
  let m = /^@(_?)\*\*([^*\n]+?)\*\*/.exec(rest);
  let html: string | null = null;
  if (m) html = mentionHtml(m[1] === '_', m[2].trim(), targets);
  else {
    m = /^@(_?)\*([^*\n]+?)\*(?!\*)/.exec(rest);
    if (m) html = groupHtml(m[1] === '_', m[2].trim(), targets);
  }
  if (!m || html === null) return false;
  if (!silentMode) {
    const token = state.push('svc_mention', '', 0);
    token.content = html;
  }
  state.pos += m[0].length;
  return true;
}

/**
 * markdown-it with Zulip's conventions: no raw HTML, newlines are line breaks, bare URLs are
 * links, and mentions become Zulip's mention spans.
 */
export class MarkdownItRenderer extends MessageRenderer {
  private readonly md = new MarkdownIt({ html: false, linkify: true, breaks: true });

  constructor() {
    super();
    this.md.inline.ruler.before('emphasis', 'svc_mention', mentionRule);
    this.md.renderer.rules.svc_mention = (tokens, idx) => tokens[idx].content;
    const defaultLink = this.md.renderer.rules.link_open ?? ((t, i, o, _e, self) => self.renderToken(t, i, o));
    this.md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
      const href = tokens[idx].attrGet('href') ?? '';
      if (!href.startsWith('/') && !href.startsWith('#')) {
        tokens[idx].attrSet('target', '_blank');
        tokens[idx].attrSet('rel', 'noopener noreferrer');
      }
      return defaultLink(tokens, idx, options, env, self);
    };
  }

  render(markdown: string, targets: MentionTargets): string {
    return this.md.render(markdown, { targets }).trimEnd();
  }
}
