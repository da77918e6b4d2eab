import { assertOneUploadWithinLimit, assertWithinUploadQuota, uploadQuotaBytes, uploadQuotaMib } from './upload.policy.js';

const MiB = 1024 * 1024;

describe('assertOneUploadWithinLimit', () => {
  it.each([
    [[], null, 'You must specify a file to upload'],
    [[1, 2], null, 'You may only upload one file at a time'],
    [[], 'count', 'You may only upload one file at a time'],
    [[], 'size', 'Uploaded file is larger than the allowed limit of 2 MiB'],
    [[2 * MiB + 1], null, 'Uploaded file is larger than the allowed limit of 2 MiB'],
  ] as const)('refuses %j (overflow %s): %s', (sizes, overflow, msg) => {
    expect(() => assertOneUploadWithinLimit(sizes, overflow, 2)).toThrow(expect.objectContaining({ msg, code: 'BAD_REQUEST' }));
  });
  it('accepts one file up to the limit', () => {
    expect(() => assertOneUploadWithinLimit([2 * MiB], null, 2)).not.toThrow();
    expect(() => assertOneUploadWithinLimit([0], null, 2)).not.toThrow();
  });
});

describe('the organization upload quota', () => {
  it('is none without a custom quota, and GiB otherwise', () => {
    expect(uploadQuotaBytes(null)).toBeNull();
    expect(uploadQuotaMib(null)).toBeNull();
    expect(uploadQuotaBytes(5)).toBe(5 * 2 ** 30);
    expect(uploadQuotaMib(5)).toBe(5 * 1024);
  });
  it('refuses an upload past it with REALM_UPLOAD_QUOTA, and accepts one that fills it exactly', () => {
    const quota = uploadQuotaBytes(1);
    expect(() => assertWithinUploadQuota(quota, 2 ** 30 - 6, 6)).not.toThrow();
    expect(() => assertWithinUploadQuota(quota, 2 ** 30 - 6, 7)).toThrow(
      expect.objectContaining({ msg: "Upload would exceed your organization's upload quota.", code: 'REALM_UPLOAD_QUOTA', kind: 'invalid' }),
    );
    expect(() => assertWithinUploadQuota(null, Number.MAX_SAFE_INTEGER, 1)).not.toThrow();
  });
});
