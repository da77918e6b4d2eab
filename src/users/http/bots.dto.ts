import { ROLES, type Role } from '@app/domain/users';
import { bool, int, JsonParam, OneOfValues, PlainParam, str } from '../../shared/http/params/index.js';

export class UpdateBotDto {
  @PlainParam(str(), { optional: true, domainNul: true }) full_name?: string;
  @JsonParam(int(), { optional: true }) @OneOfValues(ROLES) role?: Role;
  @JsonParam(int(), { optional: true }) bot_owner_id?: number;
  @PlainParam(str(), { optional: true }) default_sending_stream?: string;
  @PlainParam(str(), { optional: true }) default_events_register_stream?: string;
  @JsonParam(bool(), { optional: true }) default_all_public_streams?: boolean;
}
