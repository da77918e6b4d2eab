import { PlainParam, str } from '../../shared/http/params/index.js';

/** POST /export/realm: `public`, `full_with_consent` or `full_without_consent` (the integers 1 and 2 of earlier feature levels too). */
export class RequestExportDto {
  @PlainParam(str({ maxLength: 40 }), { optional: true }) export_type?: string;
}
