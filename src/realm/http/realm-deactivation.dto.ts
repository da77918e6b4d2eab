import { int, JsonParam, nullable } from '../../shared/http/params/index.js';

/** A day count whose date (from now) every layer can hold: at most about 27 000 years. */
const MAX_DELETION_DELAY_DAYS = 10_000_000;

export class DeactivateRealmDto {
  @JsonParam(nullable(int({ max: MAX_DELETION_DELAY_DAYS })), { default: null }) deletion_delay_days: number | null;
}
