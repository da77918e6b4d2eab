import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DomainError } from '@app/domain/shared';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Response } from 'express';
import { Public } from '../../shared/auth/decorators.js';
import { SVC_FEATURE_LEVEL, SVC_VERSION } from '../../shared/config/server-config.js';
import { RawResponse } from '../../shared/http/envelope.interceptor.js';
import { collectRoutes } from './api-routes.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../shared/http/openapi/openapi-document.js';

/** The files of swagger-ui-dist the page loads (nothing else of that folder is served). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc REST API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/swagger-ui-init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
`;

/**
 * The API reference: the OpenAPI 3.1 document built from the controllers and their parameter
 * declarations (GET /api/v1/openapi.json), and a Swagger UI page that reads it (GET /api/docs).
 */
@Controller()
@Public()
export class ApiReferenceController {
  private document: OpenApiDocument | null = null;
  private readonly assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

  constructor(private readonly modules: ModulesContainer) {}

  @Get('api/v1/openapi.json')
  @RawResponse()
  openApi(): OpenApiDocument {
    this.document ??= buildOpenApiDocument(collectRoutes(this.modules), { version: `${SVC_VERSION} (feature level ${SVC_FEATURE_LEVEL})` });
    return this.document;
  }

  @Get('api/docs')
  @RawResponse()
  page(@Res() res: Response): void {
    res.type('html').setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    res.send(PAGE);
  }

  @Get('api/docs/:asset')
  @RawResponse()
  asset(@Param('asset') asset: string, @Res() res: Response): void {
    if (asset === 'swagger-ui-init.js') {
      res.type('text/javascript; charset=utf-8').send(INIT);
      return;
    }
    const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined;
    if (type === undefined) throw new DomainError('Not Found', 'NOT_FOUND', 'not_found');
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    createReadStream(join(this.assetsDir, asset)).pipe(res);
  }
}
