/** Facts about emails and passwords that come from data sets, not from rules of ours. */
export abstract class AccountRules {
  abstract isDisposableDomain(domain: string): boolean;
  /** Zulip's check_password_strength: at least 6 characters and ≥ 10000 zxcvbn guesses. */
  abstract isStrongPassword(password: string): boolean;
}
