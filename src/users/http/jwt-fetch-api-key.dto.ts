import { bool, JsonParam, PlainParam, str } from '../../shared/http/params/index.js';

export class JwtFetchApiKeyDto {
  @JsonParam(bool(), { default: false }) include_profile: boolean;
  @PlainParam(str(), { default: '' }) token: string;
}
