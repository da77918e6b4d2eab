import { badRequest, DomainError } from '../shared/index.js';

/** The multipart body went past the route's file limits: a file too large, or too many files. */
export type UploadOverflow = 'size' | 'count';

/**
 * Zulip's upload_file_backend checks, in its order: a file, only one, within the per-file
 * limit (MAX_FILE_UPLOAD_SIZE, in MiB). `sizes` are the files read; `overflow` says why the
 * reading stopped early, if it did.
 */
export function assertOneUploadWithinLimit(sizes: readonly number[], overflow: UploadOverflow | null, maxMib: number): void {
  if (sizes.length === 0 && overflow === null) throw badRequest('You must specify a file to upload');
  if (sizes.length > 1 || overflow === 'count') throw badRequest('You may only upload one file at a time');
  if (overflow === 'size' || sizes[0] > maxMib * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  }
}

/**
 * Zulip's Realm.upload_quota_bytes for a self-hosted organization: its custom quota, in GB
 * applied as GiB ("to be a bit more generous in case of confusion"); null is no quota.
 */
export const uploadQuotaBytes = (customUploadQuotaGb: number | null): number | null =>
  customUploadQuotaGb === null ? null : customUploadQuotaGb * 2 ** 30;

/** register's realm_upload_quota_mib (Zulip's optional_bytes_to_mib). */
export const uploadQuotaMib = (customUploadQuotaGb: number | null): number | null => {
  const bytes = uploadQuotaBytes(customUploadQuotaGb);
  return bytes === null ? null : Math.floor(bytes / 2 ** 20);
};

/** Zulip's check_upload_within_quota. */
export function assertWithinUploadQuota(quotaBytes: number | null, usedBytes: number, uploadBytes: number): void {
  if (quotaBytes !== null && usedBytes + uploadBytes > quotaBytes) {
    throw new DomainError("Upload would exceed your organization's upload quota.", 'REALM_UPLOAD_QUOTA');
  }
}
