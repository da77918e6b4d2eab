import 'reflect-metadata';
import { Controller, type ExecutionContext, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { RequestLabels } from '../../src/app/metrics/server-metrics.js';
import { ApiKeyOnly, CsrfProtected, Public, Require, SessionCookieAccepted } from '../../src/shared/auth/decorators.js';
import { routeFlags } from '../../src/shared/auth/route-flags.js';
import { EnvelopeInterceptor, RawResponse } from '../../src/shared/http/envelope.interceptor.js';
import { compiledDto, MaxChars, parseParams, PlainParam, str } from '../../src/shared/http/params/index.js';

@Controller()
@Public()
class PublicController {
  @Get('a') @CsrfProtected() a() {}
  @Get('b') @RawResponse() b() {}
}

@Controller()
@Require('member')
class BaseController {
  @Get('c') @SessionCookieAccepted() c() {}
}

@Controller()
@Require('admin')
@ApiKeyOnly()
class DerivedController extends BaseController {}

const ctx = (cls: object, handler: object) => ({ getClass: () => cls, getHandler: () => handler }) as unknown as ExecutionContext;

describe('route flags (cached per controller class and handler)', () => {
  it('reads the handler, then its class, as getAllAndOverride does', () => {
    const reflector = new Reflector();
    expect(routeFlags(reflector, ctx(PublicController, PublicController.prototype.a))).toEqual({
      public: true,
      csrfProtected: true,
      sessionCookieAccepted: false,
      apiKeyOnly: false,
      spectatorAllowed: false,
      requirements: [],
    });
    expect(routeFlags(reflector, ctx(BaseController, BaseController.prototype.c))).toMatchObject({ public: false, sessionCookieAccepted: true, requirements: ['member'] });
  });

  it('keeps an inherited handler apart per class, and reads each pair once', () => {
    const reflector = new Reflector();
    const spy = vi.spyOn(reflector, 'getAllAndOverride');
    const derived = routeFlags(reflector, ctx(DerivedController, BaseController.prototype.c));
    expect(derived).toMatchObject({ apiKeyOnly: true, sessionCookieAccepted: true, requirements: ['admin'] });
    const calls = spy.mock.calls.length;
    expect(routeFlags(reflector, ctx(DerivedController, BaseController.prototype.c))).toBe(derived);
    expect(spy.mock.calls.length).toBe(calls);
    expect(routeFlags(reflector, ctx(BaseController, BaseController.prototype.c)).requirements).toEqual(['member']);
  });
});

describe('the envelope interceptor', () => {
  it('reads @RawResponse() once per handler', () => {
    const reflector = new Reflector();
    const spy = vi.spyOn(reflector, 'get');
    const interceptor = new EnvelopeInterceptor(reflector);
    expect(interceptor.isRaw(PublicController.prototype.b)).toBe(true);
    expect(interceptor.isRaw(PublicController.prototype.a)).toBe(false);
    expect(interceptor.isRaw(PublicController.prototype.b)).toBe(true);
    expect(interceptor.isRaw(PublicController.prototype.a)).toBe(false);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});

describe('request metric labels', () => {
  it('builds each (method, route, status) label set once', () => {
    const labels = new RequestLabels();
    const a = labels.get('GET', '/api/v1/users/me', 200);
    expect(a).toEqual({ method: 'GET', route: '/api/v1/users/me', status: '200' });
    expect(labels.get('GET', '/api/v1/users/me', 200)).toBe(a);
    expect(labels.get('GET', '/api/v1/users/me', 401)).toEqual({ method: 'GET', route: '/api/v1/users/me', status: '401' });
    expect(labels.get('POST', '/api/v1/users/me', 200)).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });
});

class Plain {
  @PlainParam(str(), { aliases: ['subject'] }) topic: string;
}
class Constrained {
  @PlainParam(str()) @MaxChars(3) name: string;
}
class MoreConstrained extends Plain {
  @PlainParam(str(), { optional: true }) @MaxChars(2) extra?: string;
}

const request = (body: Record<string, unknown>) => ({ body, query: {}, is: () => false }) as unknown as Request;

describe('compiled DTOs', () => {
  it('are compiled once per class, with every name and whether constraints apply (inherited ones too)', () => {
    const plain = compiledDto(Plain);
    expect(compiledDto(Plain)).toBe(plain);
    expect(plain.names).toEqual(['topic', 'subject']);
    expect(plain.constrained).toBe(false);
    expect(compiledDto(Constrained).constrained).toBe(true);
    expect(compiledDto(MoreConstrained)).toMatchObject({ names: ['extra', 'topic', 'subject'], constrained: true });
  });

  it('still answer constraint failures, and parse unconstrained DTOs', () => {
    expect(() => parseParams(request({ name: 'long' }), Constrained)).toThrow('name is too long (limit: 3 characters)');
    expect(parseParams(request({ name: 'abc' }), Constrained)).toMatchObject({ name: 'abc' });
    expect(parseParams(request({ subject: 't' }), Plain)).toMatchObject({ topic: 't' });
    expect(() => parseParams(request({ topic: 't', extra: 'xyz' }), MoreConstrained)).toThrow('extra is too long (limit: 2 characters)');
  });
});
