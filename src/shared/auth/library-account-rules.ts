import { createRequire } from 'node:module';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { AccountRules } from '../application/account-rules.js';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 100;
export const PASSWORD_MIN_GUESSES = 10_000;

/**
 * The disposable-domain list Zulip uses (ivolo/disposable-email-domains, loaded once, lazily)
 * and zxcvbn-ts for password strength, as Zulip's zxcvbn check.
 */
export class LibraryAccountRules extends AccountRules {
  private disposable: Set<string> | null = null;
  private zxcvbn: ZxcvbnFactory | null = null;

  isDisposableDomain(domain: string): boolean {
    if (this.disposable === null) {
      const require = createRequire(import.meta.url);
      this.disposable = new Set(require('disposable-email-domains') as string[]);
    }
    return this.disposable.has(domain.toLowerCase());
  }

  isStrongPassword(password: string): boolean {
    if ([...password].length < PASSWORD_MIN_LENGTH) return false;
    this.zxcvbn ??= new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
    });
    return this.zxcvbn.check(password.slice(0, PASSWORD_MAX_LENGTH)).guesses >= PASSWORD_MIN_GUESSES;
  }
}
