import type { GroupSettingValue } from '@app/domain/users';
import { type Decoder, described, dict, int, list, oneOf, schemaOf } from './params/decoders.js';

/** A group-setting value on the wire: a group id, or {direct_members, direct_subgroups}. */
export const groupSettingValue = (): Decoder<GroupSettingValue> => {
  const anonymous = dict({
    direct_members: { decoder: list(int()) },
    direct_subgroups: { decoder: list(int()) },
  });
  return oneOf<GroupSettingValue>(
    int(),
    described<Decoder<GroupSettingValue>>((v, path) => {
      const d = anonymous(v, path);
      return { directMembers: d.direct_members, directSubgroups: d.direct_subgroups };
    }, schemaOf(anonymous)),
  );
};

/** An update of a group setting: {"new": value, "old": value?}. */
export const groupSettingUpdate = (): Decoder<{ new: GroupSettingValue; old?: GroupSettingValue }> =>
  dict({ new: { decoder: groupSettingValue() }, old: { decoder: groupSettingValue(), optional: true } });
