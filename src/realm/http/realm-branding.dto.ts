import { bool, JsonParam } from '../../shared/http/params/index.js';

/** POST, DELETE and GET /realm/logo: which logo (Zulip's required `night`, JSON-encoded). */
export class LogoDto {
  @JsonParam(bool()) night: boolean;
}
