import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { badRequest } from '@app/domain/shared';
import { Injectable } from '@nestjs/common';

/**
 * The call providers of Zulip's video_calls views. This server runs none and holds no provider
 * credentials, so each answers as Zulip does where the provider is not configured. BigBlueButton
 * is the exception: Zulip's create view consults no setting and hands out a signed link to its
 * join page, which is where an unconfigured server says so.
 */
@Injectable()
export class VideoCalls {
  /** Signs the BigBlueButton links of this process (nothing ever verifies them: the join page refuses first). */
  private readonly signingKey = randomBytes(32);

  /** POST /calls/zoom/create: Zulip's ZoomGeneralOAuthProvider without VIDEO_ZOOM_CLIENT_ID. */
  createZoomCall(): never {
    throw badRequest('Zoom credentials have not been configured');
  }

  /** POST /calls/constructorgroups/create without CONSTRUCTOR_GROUPS_URL and its keys. */
  createConstructorGroupsCall(): never {
    throw badRequest('Constructor Groups is not configured.');
  }

  /** POST /calls/nextcloud_talk/create without a Nextcloud server. */
  createNextcloudTalkCall(): never {
    throw badRequest('Nextcloud Talk is not configured.');
  }

  /**
   * GET /calls/bigbluebutton/create (Zulip's get_bigbluebutton_url): a link to the join page
   * carrying the signed meeting (a random id, its name, whether the camera is locked off, and
   * the creator, who would moderate).
   */
  bigBlueButtonUrl(userId: number, meetingName: string, voiceOnly: boolean): string {
    const meeting = { meeting_id: `svc-${randomInt(100_000_000_000, 999_999_999_999)}`, name: meetingName, lock_settings_disable_cam: voiceOnly, moderator: userId };
    const payload = Buffer.from(JSON.stringify(meeting)).toString('base64url');
    const signature = createHmac('sha256', this.signingKey).update(payload).digest('base64url');
    return `/calls/bigbluebutton/join?bigbluebutton=${encodeURIComponent(`${payload}:${signature}`)}`;
  }

  /** /calls/bigbluebutton/join (Zulip's join_bigbluebutton): without BIG_BLUE_BUTTON_URL and its secret, refused before anything else. */
  joinBigBlueButton(): never {
    throw badRequest('BigBlueButton is not configured.');
  }
}
