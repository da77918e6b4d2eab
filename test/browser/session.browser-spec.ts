import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, logIn, newContext, type Person, seriousAxeViolations, WebServer } from '../support/web-browser.js';

/** The browser session's security and resilience, seen from a real Chromium. */
let server: WebServer;
let browser: Browser;
let owner: Person;
let sam: Person;

const feed = (page: Page) => page.getByRole('feed', { name: 'Messages' });
const messageArticle = (page: Page, text: string) => feed(page).getByRole('article').filter({ hasText: text });

async function openMenuItem(page: Page, name: string): Promise<void> {
  const direct = page.getByRole('button', { name });
  if (await direct.isVisible()) return direct.click();
  await page.getByRole('button', { name: 'Personal menu' }).click();
  await page.getByRole('menuitem', { name }).or(page.getByRole('button', { name })).first().click();
}

async function channelMessages(who: Person, channel: string): Promise<string[]> {
  const got = await server.api(who, 'GET', '/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'channel', operand: channel }] });
  return (got.messages as { content: string }[]).map((m) => m.content);
}

beforeAll(async () => {
  server = await WebServer.start();
  owner = await server.owner();
  sam = await server.person(owner, 'Sam Rivera');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('keeps the session cookie HttpOnly and the API key out of everything the page can read', async () => {
  const context = await newContext(browser);
  const page = await logIn(context, server, sam);
  const session = (await context.cookies()).find((c) => c.name === 'sessionid');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  const readable = await page.evaluate(async () => {
    const dbs = 'databases' in indexedDB ? await indexedDB.databases() : [];
    return JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage }, dbs, html: document.documentElement.outerHTML });
  });
  expect(readable).not.toContain('sessionid');
  expect(readable).not.toContain(sam.apiKey);
  await context.close();
});

it('refuses a form posted from another origin with the session cookie, and writes nothing', async () => {
  const context = await newContext(browser);
  const page = await logIn(context, server, sam);
  // Another origin on the same site (127.0.0.1, another port): SameSite=Lax still sends the cookie.
  const attacker: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>prize</title><form method="post" action="${server.url}/json/messages">
      <input name="type" value="stream"><input name="to" value="general"><input name="topic" value="csrf">
      <input name="content" value="forged by another site"><button>Claim your prize</button></form>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`http://127.0.0.1:${(attacker.address() as { port: number }).port}/`);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/json/messages')), page.getByRole('button', { name: 'Claim your prize' }).click()]);
    expect(answer.status()).toBe(403);
    expect(await answer.json()).toMatchObject({ result: 'error', code: 'CSRF_FAILED' });
    expect(await channelMessages(owner, 'general')).not.toContain('forged by another site');
  } finally {
    attacker.close();
    await context.close();
  }
});

it('catches up without a reload after the server restarts while the page is open', async () => {
  const context = await newContext(browser);
  const page = await logIn(context, server, sam);
  await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /^general\b/ }).click();
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await server.restart();
  await server.api(owner, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'restart', content: 'Sent after the restart' });
  await messageArticle(page, 'Sent after the restart').waitFor({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await context.close();
});

it('works on a phone-sized screen', async () => {
  const context = await newContext(browser, { width: 390, height: 844 });
  const page = await logIn(context, server, sam);
  const menu = page.getByRole('button', { name: 'Channels' }).or(page.getByRole('button', { name: 'Menu' })).first();
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /^sandbox\b/ }).click();
  const newMessage = page.getByRole('button', { name: 'New message' });
  if (await newMessage.isVisible()) await newMessage.click();
  await page.getByRole('textbox', { name: 'Topic' }).fill('small screens');
  await page.getByRole('textbox', { name: 'Message' }).fill('Typed on a phone');
  await page.getByRole('button', { name: 'Send' }).click();
  await messageArticle(page, 'Typed on a phone').waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});

it('logging out ends the session on the server', async () => {
  const context = await newContext(browser);
  const page = await logIn(context, server, sam);
  const cookie = (await context.cookies()).find((c) => c.name === 'sessionid')!;
  const before = await fetch(`${server.url}/json/users/me`, { headers: { cookie: `sessionid=${cookie.value}` } });
  expect(before.status).toBe(200);
  await openMenuItem(page, 'Log out');
  await page.getByRole('button', { name: 'Log in' }).waitFor();
  const after = await fetch(`${server.url}/json/users/me`, { headers: { cookie: `sessionid=${cookie.value}` } });
  expect(after.status).toBe(401);
  await context.close();
});
