import { DomainError } from '@app/domain/shared';
import {
  type ArgumentMetadata,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';
import { getMetadataStorage, validateSync } from 'class-validator';
import type { Request } from 'express';
import { badText, type Decoder, type DomainNul, jsonMayHoldBadText, MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from './decoders.js';
import { markParamsRead } from './request-params.js';

/**
 * How the raw form value is turned into the decoder's input:
 * - plain: the raw string as sent (Zulip's plain `str` parameters);
 * - json: must be valid JSON text (`<var> is not valid JSON` otherwise);
 * - lenient: JSON when it parses, else the raw string (Zulip's "string or integer" parameters).
 */
export type ParamEncoding = 'plain' | 'json' | 'lenient';

export interface ParamOptions {
  /** Absent parameters take this value (or stay undefined when no default is given). */
  default?: unknown;
  optional?: boolean;
  /** Other accepted names; sending two of them is REQUEST_CONFUSING_VAR. */
  aliases?: readonly string[];
  /** Text whose NUL a domain rule answers with Zulip's own words (see DomainNul). */
  domainNul?: DomainNul;
}

interface ParamSpec {
  property: string;
  /** The property, then its aliases: every name the parameter may be sent under. */
  names: readonly string[];
  encoding: ParamEncoding;
  decoder: Decoder<unknown>;
  required: boolean;
  default: unknown;
  aliases: readonly string[];
  domainNul?: DomainNul;
}

const SPECS = Symbol('svc:params');

function declare(encoding: ParamEncoding, decoder: Decoder<unknown>, o: ParamOptions = {}): PropertyDecorator {
  return (target, property) => {
    const ctor = target.constructor as { [SPECS]?: ParamSpec[] };
    if (!Object.prototype.hasOwnProperty.call(ctor, SPECS)) ctor[SPECS] = [];
    ctor[SPECS]!.push({
      property: String(property),
      names: [String(property), ...(o.aliases ?? [])],
      encoding,
      decoder,
      required: !o.optional && !('default' in o),
      default: o.default,
      aliases: o.aliases ?? [],
      domainNul: o.domainNul,
    });
  };
}

/** A plain string parameter: the raw value is used as sent. */
export const PlainParam = (decoder: Decoder<unknown>, o?: ParamOptions) => declare('plain', decoder, o);
/** A JSON-typed parameter (booleans, integers, lists, objects). */
export const JsonParam = (decoder: Decoder<unknown>, o?: ParamOptions) => declare('json', decoder, o);
/** JSON when it parses, else the raw string ("string or integer" parameters). */
export const LenientJsonParam = (decoder: Decoder<unknown>, o?: ParamOptions) => declare('lenient', decoder, o);

/** A DTO's own parameters in declaration order, then those it inherits (shared groups come last). */
function specsOf(dto: unknown): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (let c = dto as { [SPECS]?: ParamSpec[] } | null; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (Object.prototype.hasOwnProperty.call(c, SPECS)) out.push(...c[SPECS]!);
  }
  return out;
}

/** How the pipe reads one DTO class, worked out on its first request (its decorators have all run by then). */
export interface CompiledDto {
  readonly specs: readonly ParamSpec[];
  /** Every name of every parameter (aliases included): all belong to the endpoint. */
  readonly names: readonly string[];
  /** Whether class-validator constraints (constraints.ts) apply: without any, validateSync is skipped. */
  readonly constrained: boolean;
}

const compiled = new WeakMap<object, CompiledDto>();

/** The DTO's compiled reading, kept per class. */
export function compiledDto(dto: new () => object): CompiledDto {
  let c = compiled.get(dto);
  if (c === undefined) {
    const specs = specsOf(dto);
    const constrained = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false).length > 0;
    c = Object.freeze({ specs, names: specs.flatMap((s) => s.names), constrained });
    compiled.set(dto, c);
  }
  return c;
}

/** What the API reference tells of one declared parameter. */
export interface DeclaredParam {
  name: string;
  encoding: ParamEncoding;
  required: boolean;
  default: unknown;
  aliases: readonly string[];
  decoder: Decoder<unknown>;
}

/** The parameters a DTO class declares (its own, then inherited ones), as the pipe reads them. */
export const declaredParamsOf = (dto: unknown): DeclaredParam[] =>
  specsOf(dto).map((s) => ({ name: s.property, encoding: s.encoding, required: s.required, default: s.default, aliases: s.aliases, decoder: s.decoder }));

const has = (source: unknown, key: string): boolean =>
  typeof source === 'object' && source !== null && Object.prototype.hasOwnProperty.call(source, key);

function lookup(req: Request, spec: ParamSpec): { name: string; raw: unknown } | undefined {
  const present = spec.names.filter((n) => has(req.body, n) || has(req.query, n));
  markParamsRead(req, present);
  if (present.length > 1) {
    throw new DomainError(
      `Can't decide between '${present[0]}' and '${present[1]}' arguments`,
      'REQUEST_CONFUSING_VAR',
      'invalid',
      { var_name1: present[0], var_name2: present[1] },
    );
  }
  if (present.length === 0) return undefined;
  const name = present[0];
  let raw = has(req.body, name) ? (req.body as Record<string, unknown>)[name] : (req.query as Record<string, unknown>)[name];
  // A repeated form or query key arrives as an array: the last one wins, as in Django. (A JSON
  // request body's arrays are real values.)
  if (Array.isArray(raw) && !(has(req.body, name) && req.is('application/json'))) raw = raw[raw.length - 1];
  return { name, raw };
}

/**
 * JSON text must parse and nest at most MAX_JSON_DEPTH levels (else `<name> is not valid JSON`).
 * Then the decoder's checks come (Zulip's own answers: type, length, blank...). The one rule for
 * text (checkText) is returned rather than thrown: every other parameter error answers first
 * (see parseParams); it refuses what would otherwise reach the database.
 */
function decode(spec: ParamSpec, name: string, raw: unknown): { value: unknown; badText: DomainError | null } {
  const notJson = () => new DomainError(`${name} is not valid JSON`);
  if (typeof raw !== 'string' || spec.encoding === 'plain') {
    // A JSON request body's values arrive parsed; they nest no deeper than JSON text may.
    if (typeof raw === 'object' && nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw notJson();
    return { value: spec.decoder(raw, name), badText: badText(raw, name, spec.domainNul) };
  }
  let parsed: unknown;
  try {
    parsed = parseJson(raw);
  } catch {
    if (spec.encoding === 'lenient') return { value: spec.decoder(raw, name), badText: badText(raw, name, spec.domainNul) };
    throw notJson();
  }
  // Nesting deeper than the limit needs two brackets a level.
  if (raw.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(parsed, MAX_JSON_DEPTH)) throw notJson();
  const value = spec.decoder(parsed, name);
  return { value, badText: jsonMayHoldBadText(raw) ? badText(parsed, name, spec.domainNul) : null };
}

/**
 * Decodes a JSON-typed parameter that a DTO took raw (`@PlainParam(raw())`), for the few
 * endpoints where Zulip parses a parameter only after a permission check. Absent stays undefined.
 */
export function decodeJsonParam<T>(name: string, value: unknown, decoder: Decoder<T>): T | undefined {
  if (value === undefined) return undefined;
  const decoded = decode({ encoding: 'json', decoder } as ParamSpec, name, value);
  if (decoded.badText !== null) throw decoded.badText;
  return decoded.value as T;
}

/** Reads one DTO's parameters from the request; the first failure in declaration order wins. */
export function parseParams<T extends object>(req: Request, dto: new () => T): T {
  const { specs, names, constrained } = compiledDto(dto);
  const values: Record<string, unknown> = {};
  let failure: { index: number; error: unknown } | null = null;
  // The rule for text answers last: Zulip validates every parameter before anything reaches the
  // database, so any other parameter error is what Zulip would answer.
  let textFailure: DomainError | null = null;
  for (const [index, spec] of specs.entries()) {
    try {
      const found = lookup(req, spec);
      if (found === undefined) {
        if (spec.required) {
          throw new DomainError(`Missing '${spec.property}' argument`, 'REQUEST_VARIABLE_MISSING', 'invalid', {
            var_name: spec.property,
          });
        }
        if (spec.default !== undefined) values[spec.property] = structuredClone(spec.default);
        continue;
      }
      const decoded = decode(spec, found.name, found.raw);
      values[spec.property] = decoded.value;
      textFailure ??= decoded.badText;
    } catch (error) {
      failure = { index, error };
      break;
    }
  }
  // Mark the names of later parameters too: they belong to the endpoint even if unread on error.
  markParamsRead(req, names);
  // A shallow instance: the decoded values as they are (a deep copy would recurse on deep JSON).
  const instance = Object.assign(new dto(), values);
  // class-validator looks the class's constraints up anew on every call (scanning every class
  // it knows): only for DTOs that have some.
  const errors = constrained ? validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false }) : [];
  for (const e of errors) {
    const index = specs.findIndex((s) => s.property === e.property);
    if (failure === null || index < failure.index) {
      failure = { index, error: new DomainError(Object.values(e.constraints ?? {})[0] ?? `Invalid ${e.property}`) };
    }
  }
  if (failure !== null) throw failure.error;
  if (textFailure !== null) throw textFailure;
  return instance;
}

@Injectable()
export class ZulipParamsPipe implements PipeTransform<Request, object> {
  transform(req: Request, meta: ArgumentMetadata): object {
    if (typeof meta.metatype !== 'function') throw new Error('@ZulipParams() needs a DTO class type');
    return parseParams(req, meta.metatype as new () => object);
  }
}

const RequestObject = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest());

/** Injects the endpoint's DTO, parsed from the form body, multipart body or query string. */
export const ZulipParams = (): ParameterDecorator => RequestObject(ZulipParamsPipe);
