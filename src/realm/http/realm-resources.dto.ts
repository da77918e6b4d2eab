import { checkPygmentsLanguage } from '@app/domain/realm';
import { bool, type Decoder, int, JsonParam, list, PlainParam, str } from '../../shared/http/params/index.js';

/** POST /realm/filters and PATCH /realm/filters/{filter_id}. */
export class LinkifierDto {
  @PlainParam(str()) pattern: string;
  @PlainParam(str()) url_template: string;
  @PlainParam(str(), { optional: true }) example_input?: string;
  @PlainParam(str(), { optional: true }) reverse_template?: string;
  @JsonParam(list(str()), { optional: true }) alternative_url_templates?: string[];
}

/** PATCH /realm/linkifiers. */
export class ReorderLinkifiersDto {
  @JsonParam(list(int())) ordered_linkifier_ids: number[];
}

/** Zulip's check_pygments_language, run while the parameters are read, plus the known-language rule. */
const pygmentsLanguage = (): Decoder<string> => (v, path) => {
  const s = str()(v, path);
  checkPygmentsLanguage(s);
  return s;
};

/** POST /realm/playgrounds. */
export class PlaygroundDto {
  @PlainParam(str()) name: string;
  @PlainParam(pygmentsLanguage()) pygments_language: string;
  @PlainParam(str()) url_template: string;
}

/** POST /realm/domains (Zulip reads allow_subdomains first). */
export class CreateDomainDto {
  @JsonParam(bool()) allow_subdomains: boolean;
  @PlainParam(str()) domain: string;
}

/** PATCH /realm/domains/{domain}. */
export class ChangeDomainDto {
  @JsonParam(bool()) allow_subdomains: boolean;
}
