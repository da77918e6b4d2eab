// Django's URLValidator: http(s)/ftp(s), an optional user, a host (name with a TLD, localhost,
// IPv4 or IPv6 literal), an optional port, then anything without whitespace.
const URL_PATTERN =
  /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}|\[[0-9a-f:.]+\]|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+(?:[a-z\u00a1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})\.?)(?::\d{1,5})?(?:[/?#]\S*)?$/i;

export const isValidUrl = (s: string): boolean => s.length <= 2048 && URL_PATTERN.test(s);
