/** The mentions a message's Markdown makes (silent mentions never count). */
export interface MentionSyntax {
  /** `@**Full Name**` (lower-cased) */
  userNames: string[];
  /** `@**Full Name|id**` */
  userIds: number[];
  /** `@*group*` (as written) */
  groupNames: string[];
  streamWildcard: boolean;
  topicWildcard: boolean;
  /** Silent mentions (`@_**Name**`, `@_*group*`): rendered, never counted. */
  silentUserNames: string[];
  silentUserIds: number[];
  silentGroupNames: string[];
}

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

/** Code spans and fenced blocks do not mention anybody. */
function withoutCode(markdown: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence === null && opener) fence = opener[0];
    else if (fence !== null && opener?.[0] === fence) fence = null;
    else if (fence === null) kept.push(line);
  }
  return kept.join('\n').replace(/`[^`\n]*`/g, '');
}

export function extractMentions(markdown: string): MentionSyntax {
  const text = withoutCode(markdown);
  const out: MentionSyntax = {
    userNames: [],
    userIds: [],
    groupNames: [],
    streamWildcard: false,
    topicWildcard: false,
    silentUserNames: [],
    silentUserIds: [],
    silentGroupNames: [],
  };
  for (const m of text.matchAll(/(?<![\w@])@(_?)\*\*([^*\n]+?)\*\*/g)) {
    const body = m[2].trim();
    const withId = /^(.*)\|(\d+)$/.exec(body);
    if (m[1] === '_') {
      if (withId) out.silentUserIds.push(Number(withId[2]));
      else out.silentUserNames.push(body.toLowerCase());
      continue;
    }
    if (withId) out.userIds.push(Number(withId[2]));
    else if (STREAM_WILDCARDS.has(body)) out.streamWildcard = true;
    else if (body === 'topic') out.topicWildcard = true;
    else out.userNames.push(body.toLowerCase());
  }
  for (const m of text.matchAll(/(?<![\w@*])@(_?)\*(?!\*)([^*\n]+?)\*(?!\*)/g)) {
    (m[1] === '_' ? out.silentGroupNames : out.groupNames).push(m[2].trim());
  }
  return out;
}

/** `/user_uploads/<path_id>` links in a message (the uploads it references). */
export function referencedUploadPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const m of markdown.matchAll(/\/user_uploads\/(\d+\/[0-9a-f]{1,2}\/[A-Za-z0-9_-]{24}\/[^\s)\]"'<>]+)/g)) {
    paths.add(decodeURIComponent(m[1]));
  }
  return [...paths];
}
