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
