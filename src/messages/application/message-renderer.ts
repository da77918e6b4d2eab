/** Who a message's mentions resolve to (resolved by the service, read by the renderer). */
export interface MentionTargets {
  /** Active users of the organization by lower-cased full name (only unambiguous names). */
  usersByName: ReadonlyMap<string, { id: number; fullName: string }>;
  usersById: ReadonlyMap<number, { id: number; fullName: string }>;
  groupsByName: ReadonlyMap<string, { id: number; name: string }>;
}

/** Zulip-flavoured Markdown → HTML. */
export abstract class MessageRenderer {
  abstract render(markdown: string, targets: MentionTargets): string;
}

/** An HTML diff of two renderings of a message, for its edit history (Zulip's highlight_html_differences). */
export abstract class HtmlDiffer {
  abstract diff(before: string, after: string): string;
}
