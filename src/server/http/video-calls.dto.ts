import { bool, JsonParam, PlainParam, str } from '../../shared/http/params/index.js';

export class ZoomCallDto {
  @JsonParam(bool(), { default: true }) is_video_call: boolean;
}

export class ConstructorGroupsCallDto {
  @JsonParam(bool(), { default: true }) is_video_call: boolean;
}

export class NextcloudTalkCallDto {
  @PlainParam(str()) room_name: string;
}

export class BigBlueButtonCallDto {
  @PlainParam(str()) meeting_name: string;
  @JsonParam(bool(), { default: false }) voice_only: boolean;
}

export class BigBlueButtonJoinDto {
  @PlainParam(str()) bigbluebutton: string;
}
