import { applyDecorators, HttpCode, Post } from '@nestjs/common';

/** POST with Zulip's 200 on success (Nest's default for POST is 201). */
export const ApiPost = (path?: string): MethodDecorator => applyDecorators(Post(path), HttpCode(200));
