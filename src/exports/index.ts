/** The exports context's public surface: archives, for the admin command line's import and export. */
export { ArchiveReader, type OpenedArchive, OrganizationArchiver } from './application/realm-exports.ports.js';
