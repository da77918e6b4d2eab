/**
 * The local part of a channel's incoming-email address (Zulip's encode_email_address_helper):
 * runs of non-word characters become `-`; the name is slugified (ASCII, lower case); when that
 * changed its length, the name is left out and only the token remains.
 */
export function channelEmailLocalPart(channelName: string, token: string, showSender = true): string {
  const hyphenated = channelName.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = slugify(hyphenated);
  const encoded = slug.length === [...hyphenated].length && slug !== '' ? `${slug}.${token}` : token;
  return showSender ? `${encoded}.show-sender` : encoded;
}

/** Django's slugify with allow_unicode=False. */
export function slugify(value: string): string {
  // eslint-disable-next-line no-control-regex -- everything outside ASCII, control characters included
  const ascii = value.normalize('NFKD').replace(/[^\x00-\x7f]/g, '');
  return ascii
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}
