import { Module } from '@nestjs/common';
import { ApiReferenceController } from './http/api-reference.controller.js';
import { ServerController } from './http/server.controller.js';

@Module({ controllers: [ServerController, ApiReferenceController] })
export class ServerModule {}
