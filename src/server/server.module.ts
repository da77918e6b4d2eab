import { Module } from '@nestjs/common';
import { ApiReferenceController } from './http/api-reference.controller.js';
import { ServerController } from './http/server.controller.js';
import { WebAppController } from './http/web-app.controller.js';
import { CompatibilityController } from './http/compatibility.controller.js';
import { VideoCallsController } from './http/video-calls.controller.js';
import { VideoCalls } from './application/video-calls.js';

@Module({
  controllers: [ServerController, ApiReferenceController, WebAppController, CompatibilityController, VideoCallsController],
  providers: [VideoCalls],
})
export class ServerModule {}
