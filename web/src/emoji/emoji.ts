import type { RealmEmoji } from '../api/types';

/**
 * A modest set of common Unicode emoji under the names this server (and Zulip) knows them by,
 * `name:code` with code points in hex joined by `-`; a later name for the same code is an alias.
 * The organization's custom emoji come on top, from register's realm_emoji.
 */
const BUILT_IN =
  'thumbs_up:1f44d thumbs_down:1f44e +1:1f44d tada:1f389 smile:1f604 grinning:1f600 joy:1f602 rolling_on_the_floor_laughing:1f923 slightly_smiling_face:1f642 upside_down_face:1f643 wink:1f609 blush:1f60a innocent:1f607 heart_eyes:1f60d star_struck:1f929 kissing_heart:1f618 yum:1f60b stuck_out_tongue_winking_eye:1f61c zany_face:1f92a hugging_face:1f917 thinking_face:1f914 shushing_face:1f92b neutral_face:1f610 expressionless:1f611 no_mouth:1f636 smirk:1f60f unamused:1f612 grimacing:1f62c relieved:1f60c pensive:1f614 sleepy:1f62a sleeping:1f634 mask:1f637 nauseated_face:1f922 sneezing_face:1f927 hot_face:1f975 cold_face:1f976 dizzy_face:1f635 exploding_head:1f92f cowboy_hat_face:1f920 partying_face:1f973 sunglasses:1f576 nerd_face:1f913 confused:1f615 worried:1f61f slightly_frowning_face:1f641 open_mouth:1f62e astonished:1f632 flushed:1f633 pleading_face:1f97a fearful:1f628 cold_sweat:1f630 cry:1f622 sob:1f62d scream:1f631 confounded:1f616 persevere:1f623 disappointed:1f61e sweat:1f613 weary:1f629 tired_face:1f62b yawning_face:1f971 triumph:1f624 rage:1f621 angry:1f620 skull:1f480 poop:1f4a9 clown_face:1f921 ghost:1f47b alien:1f47d robot:1f916 see_no_evil:1f648 hear_no_evil:1f649 speak_no_evil:1f64a smiling_face_with_tear:1f972 melting_face:1fae0 saluting_face:1fae1 money_mouth_face:1f911 zipper_mouth_face:1f910 lying_face:1f925 face_palm:1f926 shrug:1f937 heart:2764 orange_heart:1f9e1 yellow_heart:1f49b green_heart:1f49a blue_heart:1f499 purple_heart:1f49c black_heart:1f5a4 broken_heart:1f494 sparkling_heart:1f496 100:1f4af boom:1f4a5 dizzy:1f4ab wave:1f44b ok_hand:1f44c crossed_fingers:1f91e point_left:1f448 point_right:1f449 point_up:261d point_down:1f447 raised_hand:270b fist:270a punch:1f44a clap:1f44f raised_hands:1f64c open_hands:1f450 handshake:1f91d pray:1f64f muscle:1f4aa eyes:1f440 brain:1f9e0 raising_hand:1f64b bow:1f647 party_popper:1f389 confetti_ball:1f38a balloon:1f388 gift:1f381 trophy:1f3c6 medal:1f396 fire:1f525 star:2b50 sparkles:2728 zap:26a1 rainbow:1f308 sun:2600 cloud:2601 umbrella:2602 snowflake:2744 coffee:2615 tea:1f375 beer:1f37a beers:1f37b wine_glass:1f377 cocktail:1f378 pizza:1f355 hamburger:1f354 fries:1f35f taco:1f32e cake:1f370 birthday:1f382 cookie:1f36a doughnut:1f369 apple:1f34e banana:1f34c avocado:1f951 octopus:1f419 dog:1f415 cat:1f408 mouse:1f401 rabbit:1f407 fox:1f98a bear:1f43b panda:1f43c koala:1f428 tiger:1f405 lion:1f981 cow:1f404 pig:1f416 frog:1f438 monkey:1f412 chicken:1f414 penguin:1f427 bird:1f426 unicorn:1f984 bee:1f41d bug:1f41b butterfly:1f98b snail:1f40c turtle:1f422 snake:1f40d whale:1f40b dolphin:1f42c fish:1f41f shark:1f988 crab:1f980 rocket:1f680 airplane:2708 car:1f697 train:1f686 bike:1f6b2 house:1f3e0 office:1f3e2 computer:1f4bb keyboard:2328 phone:260e email:1f4e7 calendar:1f4c5 bulb:1f4a1 book:1f4d6 books:1f4da pencil:270f memo:1f4dd pushpin:1f4cc paperclip:1f4ce lock:1f512 key:1f511 hammer:1f528 wrench:1f527 gear:2699 link:1f517 check_mark:2714 white_check_mark:2705 cross_mark:274c warning:26a0 question:2753 exclamation:2757 plus:2795 minus:2796 stop_sign:1f6d1 no_entry:26d4 red_circle:1f534 green_circle:1f7e2 hourglass:231b alarm_clock:23f0 bell:1f514 mute:1f507 speaker:1f508 musical_note:1f3b5 headphones:1f3a7 camera:1f4f7 video_camera:1f4f9 movie_camera:1f3a5 tv:1f4fa money_bag:1f4b0 dollar:1f4b5 gem:1f48e checkered_flag:1f3c1 white_flag:1f3f3 earth_americas:1f30e world_map:1f5fa mountain:26f0 volcano:1f30b new_moon:1f311 full_moon:1f315 stars:1f320 ice_cream:1f368 lollipop:1f36d popcorn:1f37f bread:1f35e egg:1f95a bacon:1f953 sushi:1f363 ramen:1f35c spaghetti:1f35d soccer:26bd basketball:1f3c0 football:1f3c8 tennis:1f3be video_game:1f3ae game_die:1f3b2 dart:1f3af bowling:1f3b3 art:1f3a8 guitar:1f3b8 microphone:1f3a4';

export interface EmojiChoice {
  name: string;
  /** Other names of the same emoji. */
  aliases: string[];
  reactionType: 'unicode_emoji' | 'realm_emoji';
  code: string;
  /** The character(s), for Unicode emoji. */
  char?: string;
  /** The image, for custom emoji. */
  url?: string;
}

/** `1f44d` → 👍, `1f1fa-1f1f8` → 🇺🇸. */
export function emojiChar(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));
  } catch {
    return '';
  }
}

let unicode: EmojiChoice[] | null = null;

export function unicodeEmoji(): EmojiChoice[] {
  if (unicode) return unicode;
  const byCode = new Map<string, EmojiChoice>();
  for (const entry of BUILT_IN.split(' ')) {
    const i = entry.lastIndexOf(':');
    const name = entry.slice(0, i);
    const code = entry.slice(i + 1);
    const seen = byCode.get(code);
    if (seen) seen.aliases.push(name);
    else byCode.set(code, { name, aliases: [], reactionType: 'unicode_emoji', code, char: emojiChar(code) });
  }
  unicode = [...byCode.values()];
  return unicode;
}

/** The custom emoji of the organization (active ones). */
export function realmEmojiChoices(realmEmoji: Readonly<Record<string, RealmEmoji>>): EmojiChoice[] {
  return Object.values(realmEmoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, aliases: [], reactionType: 'realm_emoji' as const, code: String(e.id), url: e.source_url }));
}

/** All choices: custom first, then the built-in ones. */
export function allEmoji(realmEmoji: Readonly<Record<string, RealmEmoji>>): EmojiChoice[] {
  return [...realmEmojiChoices(realmEmoji), ...unicodeEmoji()];
}

/**
 * Emoji matching a query, best first: an exact name, then names starting with it, then names
 * with a word starting with it, then names containing it (aliases count).
 */
export function searchEmoji(choices: readonly EmojiChoice[], query: string, limit = Infinity): EmojiChoice[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replaceAll(' ', '_');
  if (q === '') return choices.slice(0, limit);
  const rank = (c: EmojiChoice): number => {
    let best = 9;
    for (const n of [c.name, ...c.aliases]) {
      if (n === q) best = Math.min(best, 0);
      else if (n.startsWith(q)) best = Math.min(best, 1);
      else if (n.split('_').some((w) => w.startsWith(q))) best = Math.min(best, 2);
      else if (n.includes(q)) best = Math.min(best, 3);
    }
    return best;
  };
  return choices
    .map((c, i) => ({ c, r: rank(c), i }))
    .filter((x) => x.r < 9)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.c);
}

/** The emoji a reaction shows. */
export function reactionDisplay(
  r: { emoji_name: string; emoji_code: string; reaction_type: string },
  realmEmoji: Readonly<Record<string, RealmEmoji>>,
): { char?: string; url?: string } {
  if (r.reaction_type === 'realm_emoji') {
    const e = realmEmoji[r.emoji_code];
    return e ? { url: e.source_url } : {};
  }
  if (r.reaction_type === 'unicode_emoji') return { char: emojiChar(r.emoji_code) };
  return {};
}
