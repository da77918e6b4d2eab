import { Module } from '@nestjs/common';
import { ServerController } from './http/server.controller.js';

@Module({ controllers: [ServerController] })
export class ServerModule {}
