/** The admin context's public surface: the use cases `svc-admin` runs. */
export * from './application/admin.service.js';
export * from './application/organization-archive-import.js';
export * from './application/organization-export.js';
export * from './application/organization-import.js';
