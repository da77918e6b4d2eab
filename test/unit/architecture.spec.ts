import { ESLint } from 'eslint';

/**
 * The import rules of eslint.config.js (ARCHITECTURE.md §2) catch what they promise: each case
 * lints a probe file placed in a layer and expects the boundary rule to object, or not.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const boundaryErrors = async (filePath: string, code: string) =>
  (await problems(filePath, code)).filter((m) => m.startsWith('boundaries/dependencies:') || m.startsWith('no-restricted-imports:'));

describe('the layer and context boundaries', () => {
  it.each([
    ['application imports its own http layer', 'src/channels/application/probe.ts', "import { ChannelsController } from '../http/channels.controller.js';\nexport const x = ChannelsController;"],
    ['application imports its own persistence', 'src/channels/application/probe.ts', "import { TypeOrmChannelRepository } from '../persistence/typeorm-channel.repository.js';\nexport const x = TypeOrmChannelRepository;"],
    ['a context reaches past another context’s index.ts', 'src/messages/application/probe.ts', "import { pairKey } from '../../channels/application/channel.ports.js';\nexport const x = pairKey;"],
    ['a context imports one that depends on it', 'src/channels/application/probe.ts', "import { MessageRenderer } from '../../messages/index.js';\nexport const x = MessageRenderer;"],
    ['the kernel imports a context', 'src/shared/application/probe.ts', "import { UserQueries } from '../../users/index.js';\nexport const x = UserQueries;"],
    ['http reaches persistence', 'src/channels/http/probe.ts', "import { TypeOrmChannelQueries } from '../persistence/typeorm-channel.repository.js';\nexport const x = TypeOrmChannelQueries;"],
    ['a context module imports another context', 'src/drafts/drafts.module.ts', "import { MessagesModule } from '../messages/messages.module.js';\nexport const x = MessagesModule;"],
    ['the domain imports the application', 'libs/domain/src/messages/probe.ts', "import { Clock } from '../../../../src/shared/application/clock.js';\nexport const x = Clock;"],
    ['the domain imports a framework', 'libs/domain/src/messages/probe.ts', "import { Injectable } from '@nestjs/common';\nexport const x = Injectable;"],
    ['application imports TypeORM', 'src/messages/application/probe.ts', "import { DataSource } from 'typeorm';\nexport const x = DataSource;"],
  ])('refuses: %s', async (_case, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['a context uses another through its index.ts', 'src/messages/application/probe.ts', "import { pairKey } from '../../channels/index.js';\nexport const x = pairKey;"],
    ['http uses its application', 'src/channels/http/probe.ts', "import { ChannelsService } from '../application/channels.service.js';\nexport const x = ChannelsService;"],
    ['persistence implements its ports', 'src/channels/persistence/probe.ts', "import { ChannelQueries } from '../application/channel.ports.js';\nexport const x = ChannelQueries;"],
    ['the composition root wires anything', 'src/app/probe.ts', "import { TypeOrmChannelQueries } from '../channels/persistence/typeorm-channel.repository.js';\nexport const x = TypeOrmChannelQueries;"],
  ])('allows: %s', async (_case, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });

  it('refuses a product function over 80 lines', async () => {
    const body = Array.from({ length: 80 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const found = await problems('src/messages/application/probe.ts', `export function long(): number {\n${body}\n  return 0;\n}\n`);
    expect(found).toContain("max-lines-per-function: Function 'long' has too many lines (83). Maximum allowed is 80.");
  });
}, 60_000);

describe('the transaction', () => {
  /**
   * `Tx` is augmented by every context, so any context could call any other's repositories
   * without an import the lint sees: check those calls follow CONTEXT_DEPENDENCIES too.
   */
  it('gives no context the repositories of a context it may not depend on', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    // @ts-expect-error -- plain JavaScript config
    const { CONTEXT_DEPENDENCIES } = (await import('../../eslint.config.js')) as { CONTEXT_DEPENDENCIES: Record<string, string[]> };
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []));
    const owner = new Map<string, string>();
    for (const file of files('src')) {
      const context = file.split('/')[1];
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      const augmentation = /interface Tx \{([\s\S]*?)\n\s*\}/.exec(code);
      for (const [, key] of augmentation?.[1].matchAll(/readonly (\w+):/g) ?? []) owner.set(key, context);
    }
    expect(owner.get('messages')).toBe('messages');
    expect(owner.get('emails')).toBe('shared');
    const wrong: string[] = [];
    for (const file of files('src')) {
      const context = file.split('/')[1];
      if (!(context in CONTEXT_DEPENDENCIES)) continue;
      for (const [, key] of readFileSync(file, 'utf8').matchAll(/\btx\.(\w+)/g)) {
        const of = owner.get(key);
        if (of !== undefined && of !== context && of !== 'shared' && !CONTEXT_DEPENDENCIES[context].includes(of)) {
          wrong.push(`${file}: tx.${key} belongs to ${of}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
