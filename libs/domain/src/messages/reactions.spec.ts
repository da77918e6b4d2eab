import { aReaction, reactionEmoji, reactionsOf, refusalOf, refusalText } from '../../test/builders.js';
import { VisibilityPolicy } from './message-send.policy.js';
import {
  MessageReactions,
  participationVisibility,
  reactionMayChangeVisibility,
  shouldChangeVisibility,
} from './reactions.js';

const emoji = reactionEmoji();
const ME = 60;
const OTHER = 61;

describe('MessageReactions.add (check_add_reaction)', () => {
  it('looks up the code and type from the name when either is left out, and records the addition', () => {
    const r = reactionsOf();
    expect(r.add(ME, { emojiName: 'thumbs_up' }, emoji)).toEqual(aReaction());
    expect(r.add(ME, { emojiName: 'green_tick' }, emoji)).toEqual(aReaction({ emojiName: 'green_tick', emojiCode: '7', reactionType: 'realm_emoji' }));
    expect(r.add(ME, { emojiName: 'zulip' }, emoji)).toEqual(aReaction({ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'svc_extra_emoji' }));
    expect(r.add(ME, { emojiName: 'hamburger', emojiCode: '1f354' }, emoji)).toMatchObject({ emojiCode: '1f354', reactionType: 'unicode_emoji' });
    expect(r.list().map((x) => x.emojiName)).toEqual(['thumbs_up', 'green_tick', 'zulip', 'hamburger']);
    expect(r.pullEvents()).toEqual([
      { type: 'reaction_added', messageId: 100, reaction: aReaction() },
      { type: 'reaction_added', messageId: 100, reaction: aReaction({ emojiName: 'green_tick', emojiCode: '7', reactionType: 'realm_emoji' }) },
      { type: 'reaction_added', messageId: 100, reaction: aReaction({ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'svc_extra_emoji' }) },
      { type: 'reaction_added', messageId: 100, reaction: aReaction({ emojiName: 'hamburger', emojiCode: '1f354' }) },
    ]);
  });

  it('keeps a non-canonical name the request used (+1)', () => {
    expect(reactionsOf().add(ME, { emojiName: '+1', emojiCode: '1f44d', reactionType: 'unicode_emoji' }, emoji).emojiName).toBe('+1');
    // an active custom emoji takes the name before the Unicode one; the Unicode car stays reachable by code
    expect(reactionsOf().add(ME, { emojiName: 'car' }, emoji)).toMatchObject({ emojiCode: '9', reactionType: 'realm_emoji' });
    expect(reactionsOf().add(ME, { emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' }, emoji)).toMatchObject({ emojiCode: '1f697' });
  });

  it('refuses the same emoji twice from one user, before checking the name (Reaction already exists.)', () => {
    const r = reactionsOf(aReaction({ emojiName: 'hamburger', emojiCode: '1f354' }));
    expect(refusalOf(() => r.add(ME, { emojiName: 'non-existent', emojiCode: '1f354', reactionType: 'unicode_emoji' }, emoji))).toEqual({
      msg: 'Reaction already exists.',
      code: 'REACTION_ALREADY_EXISTS',
      data: {},
    });
    expect(refusalText(() => r.add(ME, { emojiName: 'hamburger' }, emoji))).toBe('Reaction already exists.');
    expect(r.list()).toHaveLength(1);
    expect(r.pullEvents()).toEqual([]);
  });

  it('counts another user’s reaction with the same emoji as a vote: its name wins, the emoji is not checked again', () => {
    const r = reactionsOf(aReaction({ userId: OTHER, emojiName: '+1' }), aReaction({ userId: 62, emojiName: 'thumbs_up' }));
    expect(r.add(ME, { emojiName: 'thumbs_up', emojiCode: '1f44d', reactionType: 'unicode_emoji' }, emoji).emojiName).toBe('+1');
    // a deactivated custom emoji can still get votes
    const old = reactionsOf(aReaction({ userId: OTHER, emojiName: 'old_logo', emojiCode: '8', reactionType: 'realm_emoji' }));
    expect(old.add(ME, { emojiName: 'whatever', emojiCode: '8', reactionType: 'realm_emoji' }, emoji)).toEqual(
      aReaction({ emojiName: 'old_logo', emojiCode: '8', reactionType: 'realm_emoji' }),
    );
  });

  it.each([
    [{ emojiName: 'foo' }, "Emoji 'foo' does not exist"],
    [{ emojiName: '' }, "Emoji '' does not exist"],
    // a deactivated custom emoji is no longer found by name…
    [{ emojiName: 'old_logo', reactionType: 'realm_emoji' }, "Emoji 'old_logo' does not exist"],
    // …and refused by code
    [{ emojiName: 'old_logo', emojiCode: '8', reactionType: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
    [{ emojiName: 'green_tick', emojiCode: '9999', reactionType: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emojiName: 'bogus_name', emojiCode: '7', reactionType: 'realm_emoji' }, 'Invalid custom emoji name.'],
    [{ emojiName: 'hamburger', emojiCode: 'TBD', reactionType: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emojiName: 'non-existent', emojiCode: '1f44d', reactionType: 'unicode_emoji' }, 'Invalid emoji name.'],
    [{ emojiName: 'extra_emoji', emojiCode: 'extra_emoji', reactionType: 'svc_extra_emoji' }, 'Invalid emoji code.'],
    [{ emojiName: 'zulip_invalid', emojiCode: 'zulip', reactionType: 'svc_extra_emoji' }, 'Invalid emoji name.'],
    [{ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'nonexistent_emoji_type' }, 'Invalid emoji type.'],
    // Zulip's own name of the extra type is read as ours by the service, not here
    [{ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' }, 'Invalid emoji type.'],
  ])('refuses %j: %s', (req, msg) => {
    const r = reactionsOf();
    expect(refusalOf(() => r.add(ME, req, emoji))).toEqual({ msg, code: 'BAD_REQUEST', data: {} });
    expect(r.list()).toEqual([]);
    expect(r.pullEvents()).toEqual([]);
  });
});

describe('MessageReactions.remove (remove_reaction)', () => {
  it('removes the user’s reaction by code and type, whatever name the request gives, and records the stored one', () => {
    const r = reactionsOf(aReaction({ emojiName: 'old_name', emojiCode: '1f44f' }), aReaction({ userId: OTHER, emojiCode: '1f44f', emojiName: 'old_name' }));
    expect(r.remove(ME, { emojiName: 'new_name', emojiCode: '1f44f', reactionType: 'unicode_emoji' }, emoji)).toEqual(
      aReaction({ emojiName: 'old_name', emojiCode: '1f44f' }),
    );
    expect(r.list()).toEqual([aReaction({ userId: OTHER, emojiCode: '1f44f', emojiName: 'old_name' })]);
    expect(r.pullEvents()).toEqual([{ type: 'reaction_removed', messageId: 100, reaction: aReaction({ emojiName: 'old_name', emojiCode: '1f44f' }) }]);
  });

  it('looks a bare name up as today’s emoji but keeps the type the request gives (unicode_emoji by default)', () => {
    expect(reactionsOf(aReaction({ emojiName: '+1' })).remove(ME, { emojiName: '+1', reactionType: 'unicode_emoji' }, emoji).emojiName).toBe('+1');
    const custom = aReaction({ emojiName: 'green_tick', emojiCode: '7', reactionType: 'realm_emoji' });
    expect(refusalText(() => reactionsOf(custom).remove(ME, { emojiName: 'green_tick', reactionType: 'unicode_emoji' }, emoji))).toBe(
      "Reaction doesn't exist.",
    );
    expect(reactionsOf(custom).remove(ME, { emojiName: 'green_tick', reactionType: 'realm_emoji' }, emoji)).toEqual(custom);
    expect(refusalText(() => reactionsOf().remove(ME, { emojiName: 'foo', reactionType: 'unicode_emoji' }, emoji))).toBe("Emoji 'foo' does not exist");
  });

  it('removes a reaction whose custom emoji was deactivated since, by code', () => {
    const old = aReaction({ emojiName: 'old_logo', emojiCode: '8', reactionType: 'realm_emoji' });
    expect(reactionsOf(old).remove(ME, { emojiName: 'old_logo', emojiCode: '8', reactionType: 'realm_emoji' }, emoji)).toEqual(old);
    expect(reactionsOf(old).remove(ME, { emojiCode: '8', reactionType: 'realm_emoji' }, emoji)).toEqual(old);
  });

  it('refuses a missing reaction, another user’s, and a request naming no emoji', () => {
    const r = reactionsOf(aReaction({ userId: OTHER }));
    expect(refusalOf(() => r.remove(ME, { emojiName: 'thumbs_up', emojiCode: '1f44d', reactionType: 'unicode_emoji' }, emoji))).toEqual({
      msg: "Reaction doesn't exist.",
      code: 'REACTION_DOES_NOT_EXIST',
      data: {},
    });
    expect(refusalText(() => r.remove(ME, { emojiCode: 'TBD', reactionType: 'realm_emoji' }, emoji))).toBe("Reaction doesn't exist.");
    expect(refusalText(() => r.remove(ME, { reactionType: 'unicode_emoji' }, emoji))).toBe(
      'At least one of the following arguments must be present: emoji_name, emoji_code',
    );
    expect(r.list()).toHaveLength(1);
    expect(r.pullEvents()).toEqual([]);
  });

  it('needs the emoji tables only to look a name up', () => {
    expect(MessageReactions.removalNeedsLookup({ emojiName: 'x', reactionType: 'unicode_emoji' })).toBe(true);
    expect(MessageReactions.removalNeedsLookup({ emojiName: 'x', emojiCode: '1', reactionType: 'unicode_emoji' })).toBe(false);
    expect(MessageReactions.removalNeedsLookup({ reactionType: 'unicode_emoji' })).toBe(false);
  });
});

describe('topic visibility after reacting (visibility_policy_for_participation)', () => {
  const settings = (followPolicy: number, unmuteInMutedChannelsPolicy: number) => ({ followPolicy, unmuteInMutedChannelsPolicy });

  it('is possible for humans reacting in channels only', () => {
    expect(reactionMayChangeVisibility({ channelId: 9 }, { isBot: false })).toBe(true);
    expect(reactionMayChangeVisibility({ channelId: null }, { isBot: false })).toBe(false);
    expect(reactionMayChangeVisibility({ channelId: 9 }, { isBot: true })).toBe(false);
  });

  it('follows on participation, else unmutes a muted channel’s topic on participation; never with the defaults', () => {
    expect(participationVisibility(settings(1, 4), false)).toBe(VisibilityPolicy.FOLLOWED);
    expect(participationVisibility(settings(1, 1), true)).toBe(VisibilityPolicy.FOLLOWED);
    expect(participationVisibility(settings(4, 1), true)).toBe(VisibilityPolicy.UNMUTED);
    expect(participationVisibility(settings(4, 1), false)).toBeNull();
    expect(participationVisibility(settings(3, 2), true)).toBeNull(); // Zulip's defaults: on initiation / on send
  });

  it('only ever makes a topic more visible', () => {
    expect(shouldChangeVisibility(VisibilityPolicy.FOLLOWED, VisibilityPolicy.INHERIT)).toBe(true);
    expect(shouldChangeVisibility(VisibilityPolicy.FOLLOWED, VisibilityPolicy.MUTED)).toBe(true);
    expect(shouldChangeVisibility(VisibilityPolicy.UNMUTED, VisibilityPolicy.MUTED)).toBe(true);
    expect(shouldChangeVisibility(VisibilityPolicy.FOLLOWED, VisibilityPolicy.FOLLOWED)).toBe(false);
    expect(shouldChangeVisibility(VisibilityPolicy.UNMUTED, VisibilityPolicy.FOLLOWED)).toBe(false);
    expect(shouldChangeVisibility(VisibilityPolicy.UNMUTED, VisibilityPolicy.UNMUTED)).toBe(false);
  });
});
