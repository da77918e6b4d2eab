import { bool, JsonParam, list, nullable, str } from '../../shared/http/params/index.js';

export class RegisterDto {
  @JsonParam(nullable(list(str())), { default: null }) event_types: string[] | null;
  @JsonParam(nullable(list(str())), { default: null }) fetch_event_types: string[] | null;
  @JsonParam(bool(), { default: true }) client_gravatar: boolean;
}
