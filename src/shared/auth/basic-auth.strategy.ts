import type { Actor } from '@app/domain/users';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy } from 'passport-http';
import { Authenticator } from '../../users/application/authenticator.js';

/** passport-http Basic: username = the account's email, password = its API key. */
@Injectable()
export class ApiKeyBasicStrategy extends PassportStrategy(BasicStrategy, 'basic') {
  constructor(private readonly authenticator: Authenticator) {
    super({ passReqToCallback: false });
  }

  validate(email: string, apiKey: string): Promise<Actor> {
    return this.authenticator.authenticateApiKey(email, apiKey);
  }
}
