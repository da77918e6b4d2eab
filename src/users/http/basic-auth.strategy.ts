import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { BasicStrategy } from 'passport-http';
import { Authenticator } from '../application/authenticator.js';

/** passport-http Basic: username = the account's email, password = its API key. */
@Injectable()
export class ApiKeyBasicStrategy extends PassportStrategy(BasicStrategy, 'basic') {
  constructor(private readonly authenticator: Authenticator) {
    super({ passReqToCallback: true });
  }

  validate(req: Request, email: string, apiKey: string): Promise<Actor> {
    return this.authenticator.authenticateApiKey(req.headers.host, email, apiKey);
  }
}
