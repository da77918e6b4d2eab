import { escapeHtml } from '@app/domain/shared';
import type { OutgoingEmail } from '../../shared/application/email-sender.js';

/** Zulip's get_device_browser, by substrings of the User-Agent (no parser library). */
export function deviceBrowser(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('zulip')) return 'Zulip';
  if (ua.includes('edge') || ua.includes('edg/')) return 'Edge';
  if (ua.includes('opera') || ua.includes('opr/')) return 'Opera';
  if ((ua.includes('chrome') || ua.includes('crios')) && !ua.includes('chromium')) return 'Chrome';
  if (ua.includes('firefox') && !ua.includes('seamonkey')) return 'Firefox';
  if (ua.includes('chromium')) return 'Chromium';
  if (ua.includes('safari')) return 'Safari';
  if (ua.includes('msie') || ua.includes('trident')) return 'Internet Explorer';
  return null;
}

/** Zulip's get_device_os. */
export function deviceOs(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('windows')) return 'Windows';
  if (ua.includes('macintosh')) return 'macOS';
  if (ua.includes('android')) return 'Android';
  if (ua.includes('linux')) return 'Linux';
  if (ua.includes('iphone') || ua.includes('ipad') || ua.includes('like mac os x')) return 'iOS';
  if (ua.includes(' cros ')) return 'ChromeOS';
  return null;
}

/**
 * Zulip's login_time: "Thursday, November 26, 2026 at 14:05 UTC" in the user's time zone
 * (the server's, UTC, when unset or unknown), 12- or 24-hour as the user's setting says.
 */
export function loginTime(at: Date, timezone: string, twentyFourHour: boolean): string {
  const zone = (() => {
    try {
      return timezone === '' ? 'UTC' : new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
    } catch {
      return 'UTC';
    }
  })();
  const date = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long', year: 'numeric', month: 'long', day: '2-digit' }).format(at);
  const time = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', minute: '2-digit', hour12: !twentyFourHour, timeZoneName: 'short' })
    .format(at)
    .replace(/\s([AP]M)/, '$1');
  return `${date} at ${time}`;
}

/** Zulip's zerver/emails/notify_new_login: sent after a password login (fetch_api_key). */
export function newLoginEmail(o: {
  realmId: number;
  to: string;
  realmUrl: string;
  time: string;
  browser: string | null;
  os: string | null;
  ip: string;
}): OutgoingEmail {
  const device = `${o.browser ?? 'an unknown browser'} on ${o.os ?? 'an unknown operating system'}`;
  const details: [string, string][] = [
    ['Server', o.realmUrl],
    ['Account', o.to],
    ['Time', o.time],
    ['Device', `${device}.`],
    ['IP Address', o.ip],
  ];
  const advice = 'If you do not recognize this login activity, or think your account may have been compromised, please contact the organization administrators immediately.';
  return {
    realmId: o.realmId,
    kind: 'new_login',
    to: o.to,
    subject: `New login from ${o.browser ?? 'an unknown browser'} on ${o.os ?? 'an unknown operating system'}`,
    body: [
      'Hi,',
      '',
      'This is a notification that a new login to your account has just occurred.',
      '',
      'Login details:',
      ...details.map(([k, v]) => `${k}: ${v}`),
      '',
      advice,
      '',
      'If you recognize this login activity, you can archive this notice.',
      '',
    ].join('\n'),
    html: [
      '<p>Hi,</p>',
      '<p>This is a notification that a new login to your account has just occurred.</p>',
      '<p>Login details:</p>',
      '<ul>',
      `<li>Server: <a href="${escapeHtml(o.realmUrl)}">${escapeHtml(o.realmUrl)}</a></li>`,
      ...details.slice(1).map(([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(v)}</li>`),
      '</ul>',
      `<p>${escapeHtml(advice)}</p>`,
      '<p>If you recognize this login activity, you can archive this notice.</p>',
    ].join('\n'),
  };
}

/** Zulip's zerver/emails/account_registered (not realm creation): the new user's login details. */
export function accountRegisteredEmail(o: { realmId: number; to: string; realmName: string; realmUrl: string }): OutgoingEmail {
  return {
    realmId: o.realmId,
    kind: 'account_registered',
    to: o.to,
    subject: `${o.realmName}: Your new account details`,
    body: [
      `You've joined the organization ${o.realmName}.`,
      '',
      'You will use the following info to log in with any Zulip app (web, mobile, desktop, terminal):',
      '',
      `* Organization URL: ${o.realmUrl}`,
      `* Your account email: ${o.to}`,
      '',
      'If you have any questions, please contact the organization administrators.',
      '',
    ].join('\n'),
    html: [
      `<p>You've joined the organization <b>${escapeHtml(o.realmName)}</b>.</p>`,
      '<p>You will use the following info to log in with any Zulip app (web, mobile, desktop, terminal):</p>',
      '<ul>',
      `<li>Organization URL: <a href="${escapeHtml(o.realmUrl)}">${escapeHtml(o.realmUrl)}</a></li>`,
      `<li>Your account email: ${escapeHtml(o.to)}</li>`,
      '</ul>',
      '<p>If you have any questions, please contact the organization administrators.</p>',
    ].join('\n'),
  };
}

/** Zulip's zerver/emails/password_reset (an account in the organization). */
export function passwordResetEmail(o: { realmId: number; to: string; realmName: string; realmUrl: string; resetUrl: string; validHours: number }): OutgoingEmail {
  return {
    realmId: o.realmId,
    kind: 'password_reset',
    to: o.to,
    subject: `Password reset request for ${o.realmName}`,
    body: [
      `Psst. Word on the street is that you need a new password, ${o.to}.`,
      '',
      `It's all good. Follow the link below and we'll take care of the rest (it works once, for ${o.validHours} hours):`,
      '',
      o.resetUrl,
      '',
      `If you did not ask for this, ignore this email: your password for ${o.realmUrl} stays as it is.`,
      '',
    ].join('\n'),
    html: [
      `<p>Psst. Word on the street is that you need a new password, ${escapeHtml(o.to)}.</p>`,
      `<p>It's all good. Follow the link below and we'll take care of the rest (it works once, for ${o.validHours} hours):</p>`,
      `<p><a href="${escapeHtml(o.resetUrl)}">Reset password</a></p>`,
      `<p>Or copy this address into your browser: ${escapeHtml(o.resetUrl)}</p>`,
      `<p>If you did not ask for this, ignore this email: your password for <a href="${escapeHtml(o.realmUrl)}">${escapeHtml(o.realmUrl)}</a> stays as it is.</p>`,
    ].join('\n'),
  };
}
