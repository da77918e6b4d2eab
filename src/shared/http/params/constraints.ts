import { codePointLength } from '@app/domain/shared';
import { ValidateBy, type ValidationArguments } from 'class-validator';

/*
 * Value constraints on decoded top-level parameters, run by class-validator with Zulip's
 * texts. Each one passes on `undefined` (an optional parameter that was not sent) and on
 * values of another type (the decoder has already rejected those).
 */

export const MaxChars = (limit: number): PropertyDecorator =>
  ValidateBy({
    name: 'svcMaxChars',
    constraints: [limit],
    validator: {
      validate: (v: unknown) => typeof v !== 'string' || codePointLength(v) <= limit,
      defaultMessage: (a?: ValidationArguments) => `${a?.property} is too long (limit: ${limit} characters)`,
    },
  });

export const NotBlank = (): PropertyDecorator =>
  ValidateBy({
    name: 'svcNotBlank',
    validator: {
      validate: (v: unknown) => typeof v !== 'string' || v.trim() !== '',
      defaultMessage: (a?: ValidationArguments) => `${a?.property} cannot be blank`,
    },
  });

export const OneOfValues = (values: readonly (string | number)[]): PropertyDecorator =>
  ValidateBy({
    name: 'svcOneOf',
    constraints: [values],
    validator: {
      validate: (v: unknown) => v === undefined || v === null || values.includes(v as string | number),
      defaultMessage: (a?: ValidationArguments) => `Invalid ${a?.property}`,
    },
  });

export const IntRange = (min: number | null, max: number | null): PropertyDecorator =>
  ValidateBy({
    name: 'svcIntRange',
    constraints: [min, max],
    validator: {
      validate: (v: unknown) => typeof v !== 'number' || ((min === null || v >= min) && (max === null || v <= max)),
      defaultMessage: (a?: ValidationArguments) =>
        min !== null && (a?.value as number) < min ? `${a?.property} is too small` : `${a?.property} is too large`,
    },
  });

export const MatchesPattern = (pattern: RegExp): PropertyDecorator =>
  ValidateBy({
    name: 'svcPattern',
    constraints: [pattern],
    validator: {
      validate: (v: unknown) => typeof v !== 'string' || pattern.test(v),
      defaultMessage: (a?: ValidationArguments) => `${a?.property} has invalid format`,
    },
  });
