import { type Decoder, JsonFloat, JsonParam, list, nullable, paramError, str } from '../../shared/http/params/index.js';

/** A JSON object of strings (Zulip's `Json[dict[str, str]]`), as its entries in the order sent. */
const stringDict: Decoder<[string, string][]> = (v, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof JsonFloat) throw paramError(`${path} is not a dict`);
  return Object.entries(v).map(([key, value]) => [key, str()(value, `${path}[${JSON.stringify(key)}]`)]);
};

/** PUT /bot_storage. */
export class UpdateStorageDto {
  @JsonParam(stringDict) storage: [string, string][];
}

/** GET and DELETE /bot_storage: `keys` absent or null means every key. */
export class StorageKeysDto {
  @JsonParam(nullable(list(str())), { default: null }) keys: string[] | null;
}
