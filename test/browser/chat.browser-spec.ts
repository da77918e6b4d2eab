import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, logIn, newContext, type Person, seriousAxeViolations, WebServer } from '../support/web-browser.js';

/**
 * Two people chatting through the web app in a real Chromium, each in a browser context of
 * their own, against the real server process. Selected by roles and accessible names only.
 */
let server: WebServer;
let browser: Browser;
let owner: Person;
let pat: Person;
let ownerContext: BrowserContext;
let patContext: BrowserContext;
let ownerPage: Page;
let patPage: Page;

const feed = (page: Page) => page.getByRole('feed', { name: 'Messages' });
const channels = (page: Page) => page.getByRole('navigation', { name: 'Channels' });
const messageArticle = (page: Page, text: string) => feed(page).getByRole('article').filter({ hasText: text });

async function openChannel(page: Page, name: string): Promise<void> {
  await channels(page).getByRole('link', { name: new RegExp(`^${name}\\b`) }).click();
}

/** Compose in the open channel: the `New message` button when compose is closed, then topic and text, Enter sends. */
async function sendInChannel(page: Page, topic: string, text: string): Promise<void> {
  const newMessage = page.getByRole('button', { name: 'New message' });
  if (await newMessage.isVisible()) await newMessage.click();
  await page.getByRole('textbox', { name: 'Topic' }).fill(topic);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

beforeAll(async () => {
  server = await WebServer.start();
  owner = await server.owner();
  pat = await server.person(owner, 'Pat Lee');
  browser = await launchBrowser();
  ownerContext = await newContext(browser);
  patContext = await newContext(browser);
  ownerPage = await logIn(ownerContext, server, owner);
  patPage = await logIn(patContext, server, pat);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('logging in', () => {
  it('shows the organization name, and an alert for a wrong password while keeping the email typed', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await expect.poll(() => page.getByText('Demo Organization').first().isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Email' }).fill(pat.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/incorrect/i);
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(pat.email);
    expect(await feed(page).count()).toBe(0);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: /reset/i }).waitFor();
    await context.close();
  });
});

describe('chatting', () => {
  it('a message sent in a channel shows at once for the sender and live on the other side', async () => {
    await openChannel(ownerPage, 'general');
    await openChannel(patPage, 'general');
    await sendInChannel(ownerPage, 'greetings', 'Hello from the owner');
    await messageArticle(ownerPage, 'Hello from the owner').waitFor();
    const seen = messageArticle(patPage, 'Hello from the owner');
    await seen.waitFor();
    expect(await seen.textContent()).toContain(owner.name);
  });

  it('unread counts show, then clear when the messages are read, and the server has the read flag', async () => {
    await openChannel(patPage, 'sandbox');
    const sent: number[] = [];
    for (const n of [1, 2, 3]) sent.push((await server.api(owner, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'unreads', content: `Unread number ${n}` })).id as number);
    const general = channels(patPage).getByRole('link', { name: /^general\b/ });
    await expect.poll(() => general.getAttribute('aria-label').then((l) => l ?? general.textContent())).toMatch(/3/);
    await general.click();
    await messageArticle(patPage, 'Unread number 3').waitFor();
    await expect.poll(async () => (await general.getAttribute('aria-label')) ?? (await general.textContent())).not.toMatch(/\d/);
    await expect
      .poll(async () => {
        const got = await server.api(pat, 'GET', '/messages', { anchor: sent[0], num_before: 0, num_after: 2, narrow: [] });
        return (got.messages as { id: number; flags: string[] }[]).filter((m) => sent.includes(m.id) && m.flags.includes('read')).length;
      })
      .toBe(3);
  });

  it('a direct message reaches the other person live, under Direct messages', async () => {
    await ownerPage.getByRole('button', { name: 'New direct message' }).click();
    const to = ownerPage.getByRole('combobox', { name: 'To' }).or(ownerPage.getByRole('textbox', { name: 'To' }));
    await to.fill('Pat');
    await to.press('Enter');
    const box = ownerPage.getByRole('textbox', { name: 'Message' });
    await box.fill('A private word');
    await box.press('Enter');
    await patPage.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: new RegExp(owner.name) }).waitFor();
    await patPage.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: new RegExp(owner.name) }).click();
    await messageArticle(patPage, 'A private word').waitFor();
  });

  it('a reaction and an edit are seen live on the other side', async () => {
    await openChannel(ownerPage, 'general');
    await openChannel(patPage, 'general');
    await sendInChannel(ownerPage, 'reactions', 'React to this please');
    const mine = messageArticle(ownerPage, 'React to this please');
    await messageArticle(patPage, 'React to this please').waitFor();
    await mine.hover();
    await mine.getByRole('button', { name: 'Add reaction' }).click();
    const search = ownerPage.getByRole('textbox', { name: 'Search emoji' }).or(ownerPage.getByRole('searchbox', { name: 'Search emoji' }));
    await search.fill('octopus');
    await search.press('Enter');
    await messageArticle(patPage, 'React to this please').getByRole('button', { name: /octopus.*1/ }).waitFor();
    // Pat adds the same reaction by clicking it: the count is 2 on both sides.
    await messageArticle(patPage, 'React to this please').getByRole('button', { name: /octopus.*1/ }).click();
    await mine.getByRole('button', { name: /octopus.*2/ }).waitFor();

    await mine.hover();
    const edit = mine.getByRole('button', { name: 'Edit' });
    if (!(await edit.isVisible())) await mine.getByRole('button', { name: 'Message actions' }).click();
    await ownerPage.getByRole('button', { name: 'Edit' }).or(ownerPage.getByRole('menuitem', { name: 'Edit' })).first().click();
    const editor = ownerPage.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('React to this, edited');
    await ownerPage.getByRole('button', { name: 'Save' }).click();
    await messageArticle(patPage, 'React to this, edited').waitFor();
  });

  it('search with the narrow syntax finds the message', async () => {
    await server.api(owner, 'POST', '/messages', { type: 'stream', to: 'sandbox', topic: 'needle', content: 'the word zanzibar hides here' });
    const search = patPage.getByRole('searchbox', { name: 'Search' }).or(patPage.getByRole('textbox', { name: 'Search' })).or(patPage.getByRole('combobox', { name: 'Search' }));
    await search.fill('channel:sandbox zanzibar');
    await search.press('Enter');
    await messageArticle(patPage, 'zanzibar').waitFor();
    expect(await feed(patPage).getByRole('article').filter({ hasText: 'Hello from the owner' }).count()).toBe(0);
  });

  it('an uploaded image shows inline on the other side', async () => {
    await openChannel(ownerPage, 'general');
    await openChannel(patPage, 'general');
    const newMessage = ownerPage.getByRole('button', { name: 'New message' });
    if (await newMessage.isVisible()) await newMessage.click();
    await ownerPage.getByRole('textbox', { name: 'Topic' }).fill('pictures');
    await ownerPage.getByLabel('Attach files').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    const box = ownerPage.getByRole('textbox', { name: 'Message' });
    await expect.poll(() => box.inputValue()).toMatch(/\/user_uploads\/.*dot\.png/);
    await box.press('Enter');
    const img = messageArticle(patPage, '').locator('img[src*="/user_uploads/"]').last();
    await img.waitFor();
    await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).toBeGreaterThan(0);
  });

  it('markup, a script and a javascript: link in a message show as text and run nothing', async () => {
    await openChannel(patPage, 'general');
    await patPage.evaluate(() => ((window as unknown as { pwned: number }).pwned = 0));
    const content = 'Look <b>bold</b> <script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2"> [click](javascript:window.pwned=3)';
    await server.api(owner, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'injection', content });
    const article = messageArticle(patPage, '<script>window.pwned = 1</script>');
    await article.waitFor();
    expect(await article.locator('script, b, img[onerror]').count()).toBe(0);
    for (const link of await article.getByRole('link').all()) expect(await link.getAttribute('href')).not.toMatch(/^\s*javascript:/i);
    await article.getByText('click').click().catch(() => undefined);
    expect(await patPage.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
  });

  it('the main screens have no serious or critical accessibility violation (axe-core)', async () => {
    await openChannel(patPage, 'general');
    expect(await seriousAxeViolations(patPage)).toEqual([]);
    const context = await newContext(browser);
    const login = await context.newPage();
    await login.goto(server.url + '/');
    await login.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await seriousAxeViolations(login)).toEqual([]);
    await context.close();
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
