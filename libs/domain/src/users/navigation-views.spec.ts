import { assertCanAddNavigationView, assertCanRenameNavigationView, BUILT_IN_VIEW_FRAGMENTS, navigationViewChanges } from './navigation-views.js';

describe('navigation views', () => {
  it('built-in views take no name; custom views need one', () => {
    for (const f of BUILT_IN_VIEW_FRAGMENTS) {
      expect(() => assertCanAddNavigationView(f, null)).not.toThrow();
      expect(() => assertCanAddNavigationView(f, 'Mine')).toThrow('Built-in views cannot have a custom name.');
    }
    expect(() => assertCanAddNavigationView('narrow/is/alerted', null)).toThrow('Custom views must have a valid name.');
    expect(() => assertCanAddNavigationView('narrow/is/alerted', '')).toThrow('Custom views must have a valid name.');
    expect(() => assertCanAddNavigationView('narrow/is/alerted', 'Alerts')).not.toThrow();
  });

  it('a built-in view cannot be renamed; pinning it is fine', () => {
    expect(() => assertCanRenameNavigationView('inbox', 'Box')).toThrow('Built-in views cannot have a custom name.');
    expect(() => assertCanRenameNavigationView('inbox', null)).not.toThrow();
    expect(() => assertCanRenameNavigationView('narrow/is/alerted', 'Box')).not.toThrow();
  });

  it('an update names the fields it set', () => {
    expect(navigationViewChanges({ name: 'A', isPinned: false })).toEqual({ name: 'A', is_pinned: false });
    expect(navigationViewChanges({ name: null, isPinned: true })).toEqual({ is_pinned: true });
    expect(navigationViewChanges({ name: null, isPinned: null })).toEqual({});
  });
});
