import { badRequest, DomainError } from '../shared/domain-error.js';

/**
 * Navigation views (Zulip's zerver/views/navigation_views.py): a user's settings for the views
 * of the left sidebar. Built-in views are named by the client; any other fragment is a custom
 * view, which needs a name of its own.
 */

/** Zulip's BUILT_IN_VIEW_FRAGMENTS. */
export const BUILT_IN_VIEW_FRAGMENTS: readonly string[] = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
];

/** A navigation view as the API shows it. */
export interface NavigationView {
  fragment: string;
  isPinned: boolean;
  name: string | null;
}

export const navigationViewExists = (): DomainError => badRequest('Navigation view already exists.');
/** Zulip's ResourceNotFoundError: 404 with code BAD_REQUEST. */
export const navigationViewDoesNotExist = (): DomainError => new DomainError('Navigation view does not exist.', 'BAD_REQUEST', 'not_found');

const isBuiltIn = (fragment: string): boolean => BUILT_IN_VIEW_FRAGMENTS.includes(fragment);

/** POST /navigation_views: a built-in view takes no name, a custom one needs one. */
export function assertCanAddNavigationView(fragment: string, name: string | null): void {
  if (isBuiltIn(fragment)) {
    if (name !== null) throw badRequest('Built-in views cannot have a custom name.');
  } else if (name === null || name === '') {
    throw badRequest('Custom views must have a valid name.');
  }
}

/** PATCH /navigation_views/{fragment}: a built-in view cannot be given a name. */
export function assertCanRenameNavigationView(fragment: string, name: string | null): void {
  if (isBuiltIn(fragment) && name !== null) throw badRequest('Built-in views cannot have a custom name.');
}

/**
 * The `update` event's `data` (Zulip's do_update_navigation_view): the fields the request set,
 * name first.
 */
export function navigationViewChanges(u: { name: string | null; isPinned: boolean | null }): Record<string, string | boolean> {
  const data: Record<string, string | boolean> = {};
  if (u.name !== null) data.name = u.name;
  if (u.isPinned !== null) data.is_pinned = u.isPinned;
  return data;
}
