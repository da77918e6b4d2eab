import { badRequest, DomainError } from '../shared/domain-error.js';

export const FIELD_BLANK = 'This field cannot be blank.';
export const INVALID_URL_TEMPLATE = 'Invalid URL template.';

/**
 * Zulip saves linkifiers and playgrounds through Django's `full_clean`, which gathers every
 * problem — field checks in field order, then the object's own `clean()` and uniqueness
 * checks under `__all__` — and answers with the first message plus all of them in `errors`
 * (ValidationFailureError). This collects them the same way.
 */
export class ValidationErrors {
  private readonly fields = new Map<string, string[]>();
  private readonly nonField: string[] = [];

  /** Adds a field's problem; call in the model's field order. */
  field(name: string, msg: string): void {
    const list = this.fields.get(name) ?? [];
    list.push(msg);
    this.fields.set(name, list);
  }

  /** A problem of the object as a whole (`clean()`, uniqueness). */
  object(msg: string): void {
    this.nonField.push(msg);
  }

  hasField(name: string): boolean {
    return this.fields.has(name);
  }

  /** Throws the collected problems, if any. */
  throwIfAny(): void {
    const errors: Record<string, string[]> = Object.fromEntries(this.fields);
    if (this.nonField.length > 0) errors.__all__ = this.nonField;
    const first = Object.values(errors)[0]?.[0];
    if (first !== undefined) throw validationFailure(first, errors);
  }
}

export function validationFailure(msg: string, errors: Record<string, string[]>): DomainError {
  return badRequest(msg, { errors });
}

/** Django's message for a `unique_together` clash: "<Model> with this <A>, <B> and <C> already exists." */
export function uniqueTogetherMessage(model: string, labels: readonly string[]): string {
  const list = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  return `${model} with this ${list} already exists.`;
}

/** Python's repr() of a string, as `%(name)r` writes it in Zulip's messages. */
export function pythonRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}
