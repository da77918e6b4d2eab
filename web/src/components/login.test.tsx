import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiClient } from '../api/client';
import { Login } from './Login';

function setup(answer: { status: number; body: Record<string, unknown>; headers?: Record<string, string> }) {
  const bodies: URLSearchParams[] = [];
  const client = new ApiClient(async (_url, init = {}) => {
    bodies.push(init.body as URLSearchParams);
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  });
  const onLoggedIn = vi.fn();
  render(<Login client={client} realmName="Demo Organization" onLoggedIn={onLoggedIn} />);
  return { bodies, onLoggedIn };
}

describe('the login form', () => {
  it('shows the organization name and the labelled fields', () => {
    setup({ status: 200, body: { result: 'success' } });
    expect(screen.getByText('Demo Organization')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it("shows the server's refusal as an alert and keeps what was typed", async () => {
    const { bodies, onLoggedIn } = setup({ status: 401, body: { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' } });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'pat@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your username or password is incorrect');
    expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('pat@example.com');
    expect(screen.getByRole('textbox', { name: 'Email' }).getAttribute('aria-invalid')).toBe('true');
    expect(bodies[0].get('username')).toBe('pat@example.com');
    expect(bodies[0].get('password')).toBe('wrong');
    expect(onLoggedIn).not.toHaveBeenCalled();
  });

  it('says how long to wait when rate limited', async () => {
    setup({ status: 429, body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 12 } });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'pat@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('API usage exceeded rate limit Try again in 12 seconds.');
  });

  it('logs in', async () => {
    const { onLoggedIn } = setup({ status: 200, body: { result: 'success', msg: '', user_id: 2, email: 'pat@example.com' } });
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'pat@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'right{Enter}');
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
