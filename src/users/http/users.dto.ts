import { ROLES, type Role } from '@app/domain/users';
import { bool, int, JsonParam, OneOfValues, PlainParam, str } from '../../shared/http/params/index.js';
import { profileData } from './settings.dto.js';

export class GetUsersDto {
  @JsonParam(bool(), { default: true }) client_gravatar: boolean;
  @JsonParam(bool(), { default: false }) include_custom_profile_fields: boolean;
}

export class CreateUserDto {
  @PlainParam(str()) email: string;
  @PlainParam(str()) password: string;
  @PlainParam(str(), { domainNul: true }) full_name: string;
}

export class UpdateUserDto {
  @PlainParam(str(), { optional: true, domainNul: true }) full_name?: string;
  @JsonParam(int(), { optional: true }) @OneOfValues(ROLES) role?: Role;
  @JsonParam(profileData(true), { optional: true }) profile_data?: { id: number; value: string | number[] | null }[];
}

export class CreateBotDto {
  @PlainParam(str(), { domainNul: true }) full_name: string;
  @PlainParam(str()) short_name: string;
  @JsonParam(int(), { default: 1 }) bot_type: number;
  @PlainParam(str(), { optional: true }) default_sending_stream?: string;
  @PlainParam(str(), { optional: true }) default_events_register_stream?: string;
  @JsonParam(bool(), { optional: true }) default_all_public_streams?: boolean;
}

export class FetchApiKeyDto {
  @PlainParam(str()) username: string;
  @PlainParam(str()) password: string;
}
