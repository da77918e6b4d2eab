import { useState } from 'react';
import { useAppState, useSession } from './context';
import { Dialog } from './Dialog';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const ROLES = [
  { value: 400, label: 'Member' },
  { value: 600, label: 'Guest' },
  { value: 300, label: 'Moderator' },
  { value: 200, label: 'Administrator' },
];

/** The `Invite people` dialog (administrators): invitations by email, or a link. */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const s = useAppState();
  const subs = [...s.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  const [emails, setEmails] = useState('');
  const [inviteAs, setInviteAs] = useState(400);
  const [streamIds, setStreamIds] = useState<number[]>(() => subs.map((x) => x.stream_id));
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      await session.invite(emails, streamIds, inviteAs);
      setSent('Invitations sent.');
      setEmails('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const makeLink = async () => {
    setLinkError(null);
    try {
      setLink(await session.inviteLink(streamIds, inviteAs));
    } catch (err) {
      setLinkError(errorText(err));
    }
  };

  return (
    <Dialog title="Invite people" onClose={onClose} wide>
      <form className="stack" onSubmit={send} noValidate>
        <label className="field">
          <span>Emails</span>
          <textarea
            value={emails}
            onChange={(e) => setEmails(e.target.value)}
            rows={3}
            placeholder="One or more email addresses, separated by commas or new lines"
            aria-invalid={error !== null}
            aria-describedby={error !== null ? 'invite-error' : undefined}
            data-autofocus
          />
        </label>
        {error !== null && (
          <p role="alert" className="form-error" id="invite-error">
            {error}
          </p>
        )}
        <label className="field">
          <span>Invite as</span>
          <select value={inviteAs} onChange={(e) => setInviteAs(Number(e.target.value))}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="invite-channels">
          <legend>Channels they join</legend>
          {subs.map((sub) => (
            <label key={sub.stream_id} className="checkbox">
              <input
                type="checkbox"
                checked={streamIds.includes(sub.stream_id)}
                onChange={(e) => setStreamIds((ids) => (e.target.checked ? [...ids, sub.stream_id] : ids.filter((x) => x !== sub.stream_id)))}
              />
              <span>{sub.name}</span>
            </label>
          ))}
        </fieldset>
        <div className="form-buttons">
          <button type="submit" className="primary" disabled={busy}>
            Send invitations
          </button>
          <button type="button" className="secondary" onClick={() => void makeLink()}>
            Create invite link
          </button>
        </div>
        <p role="status" className="saved-note">
          {sent ?? ''}
        </p>
        {linkError !== null && (
          <p role="alert" className="form-error">
            {linkError}
          </p>
        )}
        {link !== null && (
          <label className="field">
            <span>Invite link</span>
            <input readOnly value={link} onFocus={(e) => e.target.select()} />
          </label>
        )}
      </form>
    </Dialog>
  );
}
