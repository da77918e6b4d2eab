import type { Actor } from '@app/domain/users';
import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CurrentActor } from '../../shared/auth/decorators.js';
import { bool, type Decoder, described, JsonParam, paramError, PlainParam, str, ZulipParams } from '../../shared/http/params/index.js';
import { ApiPost } from '../../shared/http/routes.js';
import { NavigationViewsService, presentNavigationView } from '../application/navigation-views.service.js';

/** pydantic's StringConstraints(strip_whitespace=True, min_length=1): stripped, then not empty. */
const stripped: Decoder<string> = described<Decoder<string>>((v, path) => {
  const s = str()(v, path).trim();
  if (s === '') throw paramError(`${path} cannot be blank`);
  return s;
}, { type: 'string', minLength: 1 });

/** POST /navigation_views, parameters in Zulip's declaration order. */
export class AddNavigationViewDto {
  @PlainParam(stripped) fragment: string;
  @JsonParam(bool()) is_pinned: boolean;
  @PlainParam(stripped, { default: null }) name: string | null;
}

/** PATCH /navigation_views/{fragment}. */
export class UpdateNavigationViewDto {
  @JsonParam(bool(), { default: null }) is_pinned: boolean | null;
  @PlainParam(stripped, { default: null }) name: string | null;
}

/** `{fragment}` takes the rest of the path, slashes included (`narrow/is/starred`), as Zulip's route does. */
const fragmentOf = (segments: string | string[]): string => (Array.isArray(segments) ? segments.join('/') : segments);

/**
 * The caller's navigation views (Zulip's zerver/views/navigation_views.py): any user or bot,
 * each only ever sees and changes their own.
 */
@Controller('api/v1/navigation_views')
export class NavigationViewsController {
  constructor(private readonly views: NavigationViewsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor) {
    return { navigation_views: (await this.views.list(actor)).map(presentNavigationView) };
  }

  @ApiPost()
  async add(@CurrentActor() actor: Actor, @ZulipParams() p: AddNavigationViewDto) {
    await this.views.addNavigationView(actor, { fragment: p.fragment, isPinned: p.is_pinned, name: p.name });
    return {};
  }

  /** The path's fragment is stripped and must not be blank, as Zulip's typed path parameter. */
  @Patch('*fragment')
  async update(@CurrentActor() actor: Actor, @Param('fragment') segments: string | string[], @ZulipParams() p: UpdateNavigationViewDto) {
    const fragment = stripped(fragmentOf(segments), 'fragment');
    await this.views.updateNavigationView(actor, fragment, { name: p.name, isPinned: p.is_pinned });
    return {};
  }

  /** Zulip reads this path's fragment as it is (remove_navigation_view is not a typed endpoint). */
  @Delete('*fragment')
  async remove(@CurrentActor() actor: Actor, @Param('fragment') segments: string | string[]) {
    await this.views.removeNavigationView(actor, fragmentOf(segments));
    return {};
  }
}
