import { checkDeletionDelayDays, scheduledDeletionDate } from './realm-deactivation.js';

describe('deletion_delay_days', () => {
  it('may be absent, or at least the minimum (14 days), with no maximum here', () => {
    expect(() => checkDeletionDelayDays(null)).not.toThrow();
    expect(() => checkDeletionDelayDays(14)).not.toThrow();
    expect(() => checkDeletionDelayDays(100_000)).not.toThrow();
    expect(() => checkDeletionDelayDays(13)).toThrow('Data deletion time must be at least 14 days in the future.');
    expect(() => checkDeletionDelayDays(0)).toThrow('Data deletion time must be at least 14 days in the future.');
  });

  it('is required and bounded where a server sets a maximum', () => {
    expect(() => checkDeletionDelayDays(null, 14, 30)).toThrow('Data deletion time must be at most 30 days in the future.');
    expect(() => checkDeletionDelayDays(31, 14, 30)).toThrow('Data deletion time must be at most 30 days in the future.');
    expect(() => checkDeletionDelayDays(30, 14, 30)).not.toThrow();
    expect(() => checkDeletionDelayDays(0, null, null)).not.toThrow();
  });

  it('schedules the deletion that many days later', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(scheduledDeletionDate(now, 14)).toEqual(new Date('2026-01-15T00:00:00Z'));
    expect(scheduledDeletionDate(now, null)).toBeNull();
  });
});
