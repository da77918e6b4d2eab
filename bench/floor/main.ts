// The floor `npm run bench` compares the server to: the same stack (NestJS 12 on Express 5,
// passport-http Basic through @nestjs/passport, TypeORM + pg, the same body parsers) doing only
// the I/O each endpoint cannot avoid, on the server's own database. Not a product: no
// validation, no events, no errors beyond 401. PORT and DATABASE_URL from the environment.
import 'reflect-metadata';
import { Body, Controller, Get, Injectable, Module, Post, Query, Req, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { BasicStrategy } from 'passport-http';
import { DataSource } from 'typeorm';

interface Actor { id: number; realm_id: number; email: string; full_name: string; role: number }
type Authed = { user: Actor };
const basic = AuthGuard('basic');

@Injectable()
class FloorBasic extends PassportStrategy(BasicStrategy, 'basic') {
  constructor(private readonly ds: DataSource) {
    super();
  }
  /** The API key row: one indexed SELECT. */
  async validate(email: string, key: string): Promise<Actor | false> {
    const [u] = await this.ds.query(
      `SELECT id, realm_id, email, full_name, role, api_key FROM users WHERE lower(delivery_email) = lower($1) AND is_active`,
      [email],
    );
    return u && u.api_key === key ? u : false;
  }
}

@Controller('api/v1')
class FloorController {
  constructor(private readonly ds: DataSource) {}

  @Get('server_settings')
  settings() {
    return { result: 'success', msg: '', realm_name: 'floor', zulip_version: '11.0', zulip_feature_level: 400, push_notifications_enabled: false };
  }

  @Get('users/me') @UseGuards(basic)
  async me(@Req() req: Authed) {
    const [u] = await this.ds.query(`SELECT id, email, full_name, role, is_bot, date_joined, timezone FROM users WHERE realm_id = $1 AND id = $2`, [req.user.realm_id, req.user.id]);
    return { result: 'success', msg: '', user_id: u.id, email: u.email, full_name: u.full_name, role: u.role, is_bot: u.is_bot, date_joined: u.date_joined, timezone: u.timezone };
  }

  /** One transaction: the message, then its per-user rows for the channel's subscribers in one INSERT … SELECT. */
  @Post('messages') @UseGuards(basic)
  async send(@Req() req: Authed, @Body() b: Record<string, string>) {
    const id = await this.ds.transaction(async (em) => {
      const [m] = await em.query(
        `INSERT INTO messages (realm_id, sender_id, recipient_id, channel_id, topic, content, rendered_content, date_sent, sending_client)
         SELECT c.realm_id, $2, r.id, c.id, $4, $5, $6, now(), 'floor' FROM channels c JOIN recipients r ON r.type = 2 AND r.type_id = c.id
         WHERE c.realm_id = $1 AND lower(c.name) = lower($3) RETURNING id, channel_id`,
        [req.user.realm_id, req.user.id, b.to, b.topic, b.content, `<p>${b.content}</p>`],
      );
      await em.query(
        `INSERT INTO user_messages (user_id, message_id, flags) SELECT user_id, $1, CASE WHEN user_id = $3 THEN 1 ELSE 0 END FROM subscriptions WHERE channel_id = $2 AND active`,
        [m.id, m.channel_id, req.user.id],
      );
      return m.id as number;
    });
    return { result: 'success', msg: '', id };
  }

  /** Narrow to a channel's topic, newest `num_before`: one SELECT. */
  @Get('messages') @UseGuards(basic)
  async messages(@Req() req: Authed, @Query() q: Record<string, string>) {
    const narrow = JSON.parse(q.narrow ?? '[]') as { operator: string; operand: string }[];
    const term = (op: string) => narrow.find((t) => t.operator === op)?.operand ?? '';
    const rows = await this.ds.query(
      `SELECT m.id, m.sender_id, m.topic AS subject, m.rendered_content AS content, extract(epoch FROM m.date_sent)::int AS timestamp, um.flags
       FROM messages m JOIN channels c ON c.id = m.channel_id LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = $2
       WHERE c.realm_id = $1 AND lower(c.name) = lower($3) AND lower(m.topic) = lower($4) ORDER BY m.id DESC LIMIT $5`,
      [req.user.realm_id, req.user.id, term('channel'), term('topic'), Number(q.num_before ?? 100)],
    );
    return { result: 'success', msg: '', found_newest: true, messages: rows.reverse() };
  }

  /** One UPDATE of the listed messages whose flag changes (Zulip answers with those). */
  @Post('messages/flags') @UseGuards(basic)
  async flags(@Req() req: Authed, @Body() b: Record<string, string>) {
    const bit = b.flag === 'read' ? 1 : 2;
    const ids = JSON.parse(b.messages) as number[];
    const [sql, change] = b.op === 'add' ? [`flags = flags | ${bit}`, `flags & ${bit} = 0`] : [`flags = flags & ~${bit}`, `flags & ${bit} <> 0`];
    const rows = await this.ds.query(
      `UPDATE user_messages SET ${sql} WHERE user_id = $1 AND message_id = ANY($2::int[]) AND ${change} RETURNING message_id`,
      [req.user.id, ids],
    );
    return { result: 'success', msg: '', messages: rows.map((r: { message_id: number }) => r.message_id) };
  }

  /** What a register needs at least: the organization's users and the caller's subscriptions. */
  @Post('register') @UseGuards(basic)
  async register(@Req() req: Authed) {
    const users = await this.ds.query(`SELECT id AS user_id, email, full_name, role, is_bot, is_active FROM users WHERE realm_id = $1 AND NOT is_system_bot ORDER BY id`, [req.user.realm_id]);
    const subs = await this.ds.query(
      `SELECT c.id AS stream_id, c.name, c.description, s.color, s.is_muted, s.pin_to_top FROM subscriptions s JOIN channels c ON c.id = s.channel_id WHERE s.user_id = $1 AND s.active ORDER BY c.id`,
      [req.user.id],
    );
    return { result: 'success', msg: '', queue_id: `floor-${Date.now()}`, last_event_id: -1, realm_users: users, subscriptions: subs };
  }
}

@Module({
  imports: [PassportModule],
  controllers: [FloorController],
  providers: [
    FloorBasic,
    {
      provide: DataSource,
      useFactory: () => new DataSource({ type: 'postgres', url: process.env.DATABASE_URL, poolSize: 10 }).initialize(),
    },
  ],
})
class FloorModule {}

const app = await NestFactory.create<NestExpressApplication>(FloorModule, { bodyParser: false, logger: ['error'] });
app.disable('x-powered-by');
app.useBodyParser('json', { limit: 1 << 20 });
app.useBodyParser('urlencoded', { extended: false, limit: 1 << 20, parameterLimit: 1000 });
await app.listen(Number(process.env.PORT ?? 9881), '127.0.0.1');
console.log(`Floor listening on ${process.env.PORT ?? 9881}`);
