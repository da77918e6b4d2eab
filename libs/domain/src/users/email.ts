// Email syntax as Django's EmailValidator accepts it (dot-atom or quoted local part; a
// hostname with a TLD, `localhost`, or an IP literal), which is what Zulip relies on.
const DOT_ATOM = /^[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$/i;
// eslint-disable-next-line no-control-regex -- RFC 5322 quoted strings allow these control characters
const QUOTED = /^"([\u0001-\u0008\u000b\u000c\u000e-\u001f!#-[\]-\u007f]|\\[\u0001-\u0009\u000b\u000c\u000e-\u007f])*"$/i;
const HOSTNAME = /^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{2,63})$/i;
const IPV4_LITERAL = /^\[(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\]$/;

export function isValidEmail(value: string): boolean {
  if (value.length > 320 || !value.includes('@')) return false;
  const at = value.lastIndexOf('@');
  const user = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (user.length === 0 || !(DOT_ATOM.test(user) || QUOTED.test(user))) return false;
  if (domain === 'localhost' || IPV4_LITERAL.test(domain)) return true;
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}`).hostname; // IDNA-encodes internationalised domains
  } catch {
    return false;
  }
  return HOSTNAME.test(ascii) && !ascii.endsWith('-');
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
