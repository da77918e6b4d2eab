import { type ReactNode, useId, useState } from 'react';
import { isAdmin } from '../state/selectors';
import { useAppState, useSession } from './context';
import { Dialog } from './Dialog';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A form section with its own Save button, the server's error beside its fields and a success note. */
function SettingsForm({ title, onSave, children, saveLabel = 'Save' }: { title: string; onSave: () => Promise<void>; children: (errorId: string | undefined) => ReactNode; saveLabel?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <form
      className="stack settings-form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        setSaved(false);
        try {
          await onSave();
          setSaved(true);
        } catch (err) {
          setError(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 id={`${id}-title`}>{title}</h3>
      {children(error !== null ? `${id}-error` : undefined)}
      {error !== null && (
        <p role="alert" className="form-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <div className="form-buttons">
        <button type="submit" className="primary" disabled={busy}>
          {saveLabel}
        </button>
        <span role="status" className="saved-note">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
    </form>
  );
}

/** The `Settings` dialog: profile, password, notifications; the organization's name for administrators. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const s = useAppState();
  const [fullName, setFullName] = useState(s.me.full_name);
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [desktop, setDesktop] = useState(s.userSettings.enable_desktop_notifications === true);
  const [sounds, setSounds] = useState(s.userSettings.enable_sounds !== false);
  const [emails, setEmails] = useState(s.userSettings.enable_offline_email_notifications !== false);
  const [realmName, setRealmName] = useState(s.realmName);
  return (
    <Dialog title="Settings" onClose={onClose} wide>
      <div className="stack settings">
        <SettingsForm title="Profile" onSave={() => session.updateSettings({ full_name: fullName })}>
          {(err) => (
            <label className="field">
              <span>Full name</span>
              <input value={fullName} onChange={(e) => setFullName(e.target.value)} autoComplete="name" aria-describedby={err} aria-invalid={err !== undefined} data-autofocus />
            </label>
          )}
        </SettingsForm>
        <SettingsForm
          title="Password"
          onSave={async () => {
            await session.updateSettings({ old_password: oldPassword, new_password: newPassword });
            setOldPassword('');
            setNewPassword('');
          }}
        >
          {(err) => (
            <>
              <input type="text" autoComplete="username" value={s.me.email} readOnly hidden />
              <label className="field">
                <span>Current password</span>
                <input type="password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOldPassword(e.target.value)} aria-describedby={err} aria-invalid={err !== undefined} />
              </label>
              <label className="field">
                <span>New password</span>
                <input type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} aria-describedby={err} aria-invalid={err !== undefined} />
              </label>
            </>
          )}
        </SettingsForm>
        <SettingsForm
          title="Notifications"
          onSave={async () => {
            if (desktop && typeof Notification !== 'undefined' && Notification.permission === 'default') await Notification.requestPermission();
            await session.updateSettings({ enable_desktop_notifications: desktop, enable_sounds: sounds, enable_offline_email_notifications: emails });
          }}
        >
          {() => (
            <>
              <label className="checkbox">
                <input type="checkbox" checked={desktop} onChange={(e) => setDesktop(e.target.checked)} />
                <span>Desktop notifications</span>
              </label>
              <label className="checkbox">
                <input type="checkbox" checked={sounds} onChange={(e) => setSounds(e.target.checked)} />
                <span>Sounds</span>
              </label>
              <label className="checkbox">
                <input type="checkbox" checked={emails} onChange={(e) => setEmails(e.target.checked)} />
                <span>Email notifications when offline</span>
              </label>
            </>
          )}
        </SettingsForm>
        {isAdmin(s) && (
          <SettingsForm title="Organization" onSave={() => session.renameRealm(realmName)}>
            {(err) => (
              <label className="field">
                <span>Organization name</span>
                <input value={realmName} onChange={(e) => setRealmName(e.target.value)} aria-describedby={err} aria-invalid={err !== undefined} />
              </label>
            )}
          </SettingsForm>
        )}
      </div>
    </Dialog>
  );
}
