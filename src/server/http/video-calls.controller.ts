import type { Actor } from '@app/domain/users';
import { Controller, Get } from '@nestjs/common';
import { CurrentActor, Public } from '../../shared/auth/decorators.js';
import { ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { VideoCalls } from '../application/video-calls.js';
import { BigBlueButtonCallDto, BigBlueButtonJoinDto, ConstructorGroupsCallDto, NextcloudTalkCallDto, ZoomCallDto } from './video-calls.dto.js';

/** Zulip's video call endpoints (zerver/views/video_calls.py), for any signed-in user. */
@Controller()
export class VideoCallsController {
  constructor(private readonly calls: VideoCalls) {}

  @ApiPost('api/v1/calls/zoom/create')
  createZoomCall(@ZulipParams() _p: ZoomCallDto) {
    this.calls.createZoomCall();
  }

  @ApiPost('api/v1/calls/constructorgroups/create')
  createConstructorGroupsCall(@ZulipParams() _p: ConstructorGroupsCallDto) {
    this.calls.createConstructorGroupsCall();
  }

  @ApiPost('api/v1/calls/nextcloud_talk/create')
  createNextcloudTalkCall(@ZulipParams() _p: NextcloudTalkCallDto) {
    this.calls.createNextcloudTalkCall();
  }

  @Get('api/v1/calls/bigbluebutton/create')
  bigBlueButtonUrl(@CurrentActor() actor: Actor, @ZulipParams() p: BigBlueButtonCallDto) {
    return { url: this.calls.bigBlueButtonUrl(actor.userId, p.meeting_name, p.voice_only) };
  }

  /**
   * The join page the link above leads to (outside /api/v1). Zulip first sends a browser
   * without a session to the login page; here everyone gets the refusal.
   */
  @Get('calls/bigbluebutton/join')
  @Public()
  joinBigBlueButton(@ZulipParams() _p: BigBlueButtonJoinDto) {
    this.calls.joinBigBlueButton();
  }
}
