import { connectionViolations } from '../../src/app/connection-guard.js';

// Cheap argon2 parameters in tests: hashing speed is not what they measure.
process.env.PASSWORD_HASH_MEMORY_KIB ??= '1024';

// A statement that asked for a second pooled connection inside a unit of work's transaction
// fails (STRICT_POOL_CHECKS); this also fails the test when that failure was caught and hidden.
function failOnConnectionViolations(): void {
  const seen = connectionViolations.splice(0);
  if (seen.length > 0) throw new Error(`second pooled connection inside a transaction:\n${seen.map((e) => e.stack).join('\n\n')}`);
}
afterEach(failOnConnectionViolations);
afterAll(failOnConnectionViolations);
