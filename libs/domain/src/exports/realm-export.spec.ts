import { assertCanDeleteExport, assertCanRequestExport, checkManifest, type ExportRequestFacts, parseExportType, presentExport } from './index.js';

const facts = (o: Partial<ExportRequestFacts> = {}): ExportRequestFacts => ({
  type: 'public',
  recentExports: 0,
  exportableMessages: 10,
  uploadBytes: 0,
  consentingOwner: true,
  ownerWithVisibleEmail: true,
  supportEmail: 'admin@example.com',
  ...o,
});
const msg = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return null;
};

describe('export_type', () => {
  it('takes the names and the integers of earlier feature levels', () => {
    expect(parseExportType(undefined)).toBe('public');
    expect(parseExportType('full_with_consent')).toBe('full_with_consent');
    expect(parseExportType('1')).toBe('public');
    expect(parseExportType('2')).toBe('full_with_consent');
    expect(msg(() => parseExportType('3'))).toBe('Invalid export_type');
    expect(msg(() => parseExportType('everything'))).toBe('Invalid export_type');
  });
});

describe('requesting an export', () => {
  it('allows up to five a week', () => {
    expect(msg(() => assertCanRequestExport(facts({ recentExports: 4 })))).toBeNull();
    expect(msg(() => assertCanRequestExport(facts({ recentExports: 5 })))).toBe('Exceeded rate limit.');
  });
  it('sends large organizations to a manual export', () => {
    expect(msg(() => assertCanRequestExport(facts({ exportableMessages: 250_001 })))).toBe('Please request a manual export from admin@example.com.');
    expect(msg(() => assertCanRequestExport(facts({ uploadBytes: 21 * 1024 ** 3 })))).toBe('Please request a manual export from admin@example.com.');
    expect(msg(() => assertCanRequestExport(facts({ exportableMessages: 250_000 })))).toBeNull();
  });
  it('needs a consenting owner for a full export, an owner with a visible address for a public one', () => {
    expect(msg(() => assertCanRequestExport(facts({ type: 'full_with_consent', consentingOwner: false })))).toMatch(/^Make sure at least one Organization Owner is consenting/);
    expect(msg(() => assertCanRequestExport(facts({ type: 'full_with_consent', ownerWithVisibleEmail: false })))).toBeNull();
    expect(msg(() => assertCanRequestExport(facts({ ownerWithVisibleEmail: false })))).toMatch(/^Make sure at least one Organization Owner allows other Administrators/);
    expect(msg(() => assertCanRequestExport(facts({ type: 'full_without_consent' })))).not.toBeNull();
  });
});

it('deletes only finished exports', () => {
  expect(msg(() => assertCanDeleteExport(null))).toBe('Invalid data export ID');
  expect(msg(() => assertCanDeleteExport('deleted'))).toBe('Export already deleted');
  expect(msg(() => assertCanDeleteExport('failed'))).toBe('Export failed, nothing to delete');
  expect(msg(() => assertCanDeleteExport('requested'))).toBe('Export still in progress');
  expect(msg(() => assertCanDeleteExport('started'))).toBe('Export still in progress');
  expect(msg(() => assertCanDeleteExport('succeeded'))).toBeNull();
});

it('shows an export as Zulip does', () => {
  const at = new Date(1_700_000_000_500);
  const base = { id: 3, actingUserId: 9, type: 'public' as const, dateRequested: at, dateDeleted: null, dateFailed: null };
  expect(presentExport({ ...base, status: 'started' }, 'http://x/e.tar.gz')).toEqual({
    id: 3, export_time: 1_700_000_000.5, acting_user_id: 9, export_url: null, deleted_timestamp: null, failed_timestamp: null, pending: true, export_type: 'public',
  });
  expect(presentExport({ ...base, status: 'succeeded' }, 'http://x/e.tar.gz')).toMatchObject({ export_url: 'http://x/e.tar.gz', pending: false });
  expect(presentExport({ ...base, status: 'failed', dateFailed: at }, null)).toMatchObject({ failed_timestamp: 1_700_000_000.5, pending: false });
});

describe('archive manifests', () => {
  const ok = { format: 'svc-organization-archive', version: 1, organization: { id: 1, name: 'Acme', string_id: '' } };
  it('takes this version and older ones, refuses newer ones and other files', () => {
    expect(checkManifest(ok).version).toBe(1);
    expect(msg(() => checkManifest({ ...ok, version: 2 }))).toMatch(/newer than this server reads/);
    expect(msg(() => checkManifest({ ...ok, format: 'zip' }))).toMatch(/^Not an organization export/);
    expect(msg(() => checkManifest([]))).toMatch(/^Not an organization export/);
    expect(msg(() => checkManifest({ ...ok, organization: null }))).toMatch(/^Not an organization export/);
  });
});
