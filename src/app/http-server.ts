import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { BootSummary } from './server-lifecycle.js';
import { configureApp } from '../configure-app.js';
import { BootstrapService } from '../users/application/bootstrap.service.js';
import { ServerConfig } from '../shared/config/server-config.js';
import { closeConnectionsAfterAnswers } from '../shared/http/closing-connections.js';
import { PinoNestLogger } from '../shared/logging/logger.js';

/**
 * The HTTP server: loaded by main.ts only in a process that serves requests (WORKERS=1, or a
 * cluster worker), so that a cluster's primary never loads the application.
 */

/** A listening Nest app and its way to end keep-alive connections at shutdown. */
export interface Serving {
  app: NestExpressApplication;
  connections: { closing(): void };
  boot: BootSummary;
}

/** The Nest app on `config.databaseUrl` (migrations, first-start bootstrap), listening. */
export async function listen(config: ServerConfig, logger: Logger): Promise<Serving> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, logger), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
  });
  try {
    configureApp(app);
    const connections = closeConnectionsAfterAnswers(app.getHttpServer());
    await app.listen(config.port, config.host);
    const { created, generatedPassword } = app.get(BootstrapService).lastResult!;
    return { app, connections, boot: { created, generatedPassword } };
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}

/** Answers the waiting long-polls (heartbeats), stops accepting, finishes running requests, closes the pool. */
export async function close(serving: Serving | null): Promise<void> {
  serving?.connections.closing(); // answers from now on end their keep-alive connections
  await serving?.app.close();
}
