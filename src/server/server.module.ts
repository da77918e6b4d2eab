import { Module } from '@nestjs/common';
import { ApiReferenceController } from './http/api-reference.controller.js';
import { ServerController } from './http/server.controller.js';
import { WebAppController } from './http/web-app.controller.js';

@Module({ controllers: [ServerController, ApiReferenceController, WebAppController] })
export class ServerModule {}
