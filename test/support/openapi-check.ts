import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../../src/shared/http/openapi/openapi-document.js';

/* ajv-formats is CommonJS: its default import is the plugin, or a namespace holding it. */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;

const DOC_ID = 'svc-openapi.json';

/** A JSON pointer (as a URI fragment) to a place in the document. */
const pointer = (...steps: string[]) => steps.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

interface Template {
  path: string;
  regex: RegExp;
  params: number;
}

export interface AnswerSeen {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/**
 * Checks answers against the server's OpenAPI document (ajv, JSON Schema 2020-12 as OpenAPI
 * 3.1 uses): the route (method + path template) must be documented, the status must be one of
 * its responses, and a JSON body must match that response's schema. Returns the problem, or null.
 */
export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly templates: Template[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOC_ID }, undefined, undefined, false);
    this.templates = Object.keys(doc.paths)
      .map((path) => {
        const source = path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '([^/]+)');
        return { path, regex: new RegExp(`^${source}$`), params: (path.match(/\{/g) ?? []).length };
      })
      .sort((a, b) => a.params - b.params);
  }

  check(a: AnswerSeen): string | null {
    const path = decodeURI(a.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0]);
    const method = a.method.toLowerCase() === 'head' ? 'get' : a.method.toLowerCase();
    const template = this.templates.find((t) => t.regex.test(path) && method in this.doc.paths[t.path]);
    const what = `${a.method.toUpperCase()} ${path} → ${a.status}`;
    if (template === undefined) {
      // A route miss: only Zulip's 404 or 405 (the path exists for other methods) may answer it.
      if (a.status === 404 || a.status === 405) return this.validate(['components', 'responses', a.status === 404 ? 'NotFound' : 'MethodNotAllowed'], a, what);
      return `${what}: the route is not in the OpenAPI document (/api/v1/openapi.json)`;
    }
    let response = this.doc.paths[template.path][method].responses as Record<string, unknown>;
    if (!(String(a.status) in response)) return `${what}: status ${a.status} is not documented for ${method.toUpperCase()} ${template.path}`;
    response = response[String(a.status)] as Record<string, unknown>;
    const steps = typeof response.$ref === 'string' ? response.$ref.slice(2).split('/') : ['paths', template.path, method, 'responses', String(a.status)];
    return this.validate(steps, a, `${what} (documented as ${method.toUpperCase()} ${template.path})`);
  }

  private validate(responseSteps: string[], a: AnswerSeen, what: string): string | null {
    let response: unknown = this.doc;
    for (const s of responseSteps) response = (response as Record<string, unknown>)[s];
    const content = ((response as { content?: Record<string, unknown> }).content ?? {}) as Record<string, unknown>;
    const isJson = a.contentType?.startsWith('application/json') === true;
    if (!isJson) {
      const documented = Object.keys(content).some((type) => type === '*/*' || a.contentType?.startsWith(type.replace(/\*$/, '')));
      return documented || a.contentType === undefined ? null : `${what}: content type ${a.contentType} is not documented (${Object.keys(content).join(', ')})`;
    }
    if (!('application/json' in content)) {
      return '*/*' in content ? null : `${what}: a JSON answer where the document has ${Object.keys(content).join(', ') || 'no body'}`;
    }
    const ref = `${DOC_ID}#/${pointer(...responseSteps, 'content', 'application/json', 'schema')}`;
    let validate = this.validators.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    if (validate(a.body)) return null;
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return `${what}: the body does not match the OpenAPI document:\n  ${errors.join('\n  ')}\n  body: ${JSON.stringify(a.body).slice(0, 600)}`;
  }
}
