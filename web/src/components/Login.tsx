import { useId, useState } from 'react';
import { ApiError, type ApiClient } from '../api/client';

/** The login form: `Email`, `Password`, `Log in`; the server's refusal shown as an alert, what was typed kept. */
export function Login({ client, realmName, onLoggedIn }: { client: ApiClient; realmName: string; onLoggedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const errorId = `${id}-error`;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.post('/accounts/login/', { username: email.trim(), password });
      onLoggedIn();
    } catch (err) {
      let msg = err instanceof Error ? err.message : String(err);
      if (err instanceof ApiError && err.code === 'RATE_LIMIT_HIT' && err.retryAfter !== undefined) msg = `${msg} Try again in ${Math.ceil(err.retryAfter)} seconds.`;
      setError(msg);
      setBusy(false);
    }
  };
  return (
    <main className="login">
      <div className="login-card">
        <h1 className="login-realm">{realmName || 'Chat'}</h1>
        <p className="muted">Log in to continue.</p>
        <form onSubmit={submit} noValidate className="stack">
          <label className="field" htmlFor={`${id}-email`}>
            <span>Email</span>
          </label>
          <input
            id={`${id}-email`}
            type="email"
            name="username"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? errorId : undefined}
            autoFocus
          />
          <label className="field" htmlFor={`${id}-password`}>
            <span>Password</span>
          </label>
          <input
            id={`${id}-password`}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? errorId : undefined}
          />
          {error !== null && (
            <p role="alert" className="form-error" id={errorId}>
              {error}
            </p>
          )}
          <button type="submit" className="primary login-button" disabled={busy}>
            Log in
          </button>
        </form>
        <p className="login-help">
          <a href="/accounts/password/reset/">Forgot your password?</a>
        </p>
      </div>
    </main>
  );
}
